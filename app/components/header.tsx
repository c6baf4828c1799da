import { ChevronDown, ShopMark, ShoppingBag } from '#app/components/icons.tsx'
import { useEffect, useRef, useState } from 'react'
import { Link, NavLink, useNavigation } from 'react-router'
import { useCartCount } from '#app/modules/cart/cart-store.ts'
import type { CategorySummary } from '#app/modules/catalog/catalog.server.ts'
import { CART_PATH, categoryPath } from '#app/utils/paths.ts'
import { SearchBox } from './search-box.tsx'
import { ListThumb } from './list-thumb.tsx'
import type { TrackedElement } from '#app/modules/analytics/track-names.ts'

export function Header({ storeName, categories }: { storeName: string; categories: CategorySummary[] }) {
  return (
    <header className="sticky top-0 z-40 border-b border-brand-100 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3">
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 font-semibold text-brand-700"
          aria-label={`${storeName}, inicio`}
        >
          <ShopMark width={32} height={32} className="size-8" />
          <span className="hidden sm:inline">{storeName}</span>
        </Link>
        <div className="min-w-0 flex-1">
          <SearchBox />
        </div>
        <CartLink />
      </div>
      <nav
        aria-label="Principal"
        className="mx-auto flex max-w-6xl items-center gap-1 px-4 pb-2 text-sm font-medium"
      >
        <NavLink
          to="/"
          end
          className={({ isActive }) =>
            `rounded-full px-3 py-1.5 ${isActive ? 'bg-brand-100 text-brand-700' : 'hover:bg-brand-50'}`
          }
        >
          Inicio
        </NavLink>
        <DesktopCategories categories={categories} />
        <MobileCategories categories={categories} />
      </nav>
    </header>
  )
}

/** The cart's link and count: the one part of the header that follows the cart. */
function CartLink() {
  const count = useCartCount()
  return (
    <Link
      to={CART_PATH}
      className="relative shrink-0 rounded-full p-2 text-brand-700 hover:bg-brand-50"
      aria-label={count === null ? 'Carrito' : `Carrito, ${count} productos`}
      data-testid="header-cart"
      data-track={'carrito' satisfies TrackedElement}
    >
      <ShoppingBag className="size-6" aria-hidden="true" />
      {count === null ? null : (
        <span
          data-testid="cart-count"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-brand-600 px-1 text-center text-xs leading-5 font-bold text-white"
        >
          {count}
        </span>
      )}
    </Link>
  )
}

/**
 * Desktop "Accesorios": opens on hover or keyboard focus. Choosing a category closes it even though
 * the pointer is still over it and the link keeps focus; it opens again once the pointer leaves.
 */
function DesktopCategories({ categories }: { categories: CategorySummary[] }) {
  const [dismissed, setDismissed] = useState(false)
  const open = dismissed
    ? ''
    : 'group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100'
  return (
    <div
      className="group relative hidden md:block"
      data-testid="accesorios-menu"
      onPointerLeave={() => setDismissed(false)}
      onFocus={(event) => {
        if (event.target instanceof HTMLButtonElement) setDismissed(false)
      }}
    >
      <button
        type="button"
        className="flex items-center gap-1 rounded-full px-3 py-1.5 hover:bg-brand-50"
        aria-haspopup="true"
      >
        Accesorios <ChevronDown className="size-4" aria-hidden="true" />
      </button>
      <ul
        className={`invisible absolute top-full left-0 z-50 grid w-[28rem] grid-cols-2 gap-1 rounded-2xl border border-brand-100 bg-white p-2 opacity-0 shadow-lg transition ${open}`}
      >
        {categories.map((category) => (
          <li key={category.id}>
            <CategoryLink
              category={category}
              onChoose={(link) => {
                setDismissed(true)
                link.blur()
              }}
            />
          </li>
        ))}
      </ul>
    </div>
  )
}

function CategoryLink({
  category,
  onChoose,
}: {
  category: CategorySummary
  onChoose: (link: HTMLAnchorElement) => void
}) {
  return (
    <Link
      to={categoryPath(category)}
      onClick={(event) => onChoose(event.currentTarget)}
      data-track={'categoria' satisfies TrackedElement}
      className="flex items-center gap-2 rounded-xl p-2 hover:bg-brand-50"
    >
      {category.image ? <ListThumb src={category.image.thumb} /> : null}
      <span>{category.name}</span>
    </Link>
  )
}

/**
 * Small screens: a "Todas las categorías" dropdown that closes once a category is chosen, the one
 * already shown included (the path does not change then), and whenever another navigation starts.
 * It closes when the navigation starts, not when the new page arrives: on a slow phone the page can
 * arrive a second later, after the shopper opened the list again, and must not shut it under them.
 */
function MobileCategories({ categories }: { categories: CategorySummary[] }) {
  const details = useRef<HTMLDetailsElement>(null)
  /** The path a choice from this list closed it for: that navigation must not close it again. */
  const chosenPath = useRef<string | null>(null)
  const navigation = useNavigation()
  // The key names one navigation, whatever the router updates while it runs.
  const pending = navigation.location?.key
  const pendingPath = navigation.location?.pathname
  useEffect(() => {
    if (!pending || !details.current) return
    // A choice closed the list at once; on a slow phone the person may have opened it again
    // before this navigation's state arrives, and it must stay open for them.
    if (chosenPath.current !== null && chosenPath.current === pendingPath) {
      chosenPath.current = null
      return
    }
    details.current.open = false
  }, [pending, pendingPath])
  return (
    <details ref={details} className="relative md:hidden" data-testid="mobile-categories">
      <summary className="flex cursor-pointer list-none items-center gap-1 rounded-full px-3 py-1.5 hover:bg-brand-50">
        Todas las categorías <ChevronDown className="size-4" aria-hidden="true" />
      </summary>
      <ul className="absolute top-full left-0 z-50 mt-1 w-64 rounded-2xl border border-brand-100 bg-white p-2 shadow-lg">
        {categories.map((category) => (
          <li key={category.id}>
            <CategoryLink
              category={category}
              onChoose={(link) => {
                chosenPath.current = link.pathname
                if (details.current) details.current.open = false
              }}
            />
          </li>
        ))}
      </ul>
    </details>
  )
}
