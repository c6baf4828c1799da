import { useEffect, useRef, useState } from 'react'
import type { MetaDescriptor } from 'react-router'
import type { ProductCard as Card } from '#app/modules/catalog/catalog.server.ts'
import { imagePreload } from '#app/utils/image-preload.ts'
import { HIDDEN_UNTIL_HYDRATED } from './hydrate-later.tsx'
import { CARD_IMAGE_SIZES, ProductCard } from './product-card.tsx'

/** The cards of a page's first row on a phone: when a grid opens the page, their images come first. */
export const FIRST_ROW_CARDS = 2

/** Head preloads for the images of a grid's first `priorityCount` cards (`meta` of its route). */
export function cardImagePreloads(products: Card[], priorityCount: number): MetaDescriptor[] {
  return products
    .slice(0, priorityCount)
    .flatMap((product) => (product.image ? [imagePreload(product.image, CARD_IMAGE_SIZES)] : []))
}

/**
 * The cards a grid may show on a screen's first view: two rows of four on a laptop, more than a phone
 * shows. They are rendered with the page: a card skipped while off screen takes its real height
 * once drawn, which would move the cards under it.
 */
export const FIRST_VIEW_CARDS = 8

/**
 * Neither styled nor laid out, image not fetched, until it nears the screen (`content-visibility:
 * auto`), so a page of cards starts with the work of its first rows only. Until then it holds about
 * the height of a card on a phone, a tablet or a laptop. Only until the page has settled
 * (`data-settled`, just after hydration): a card drawn late takes its real height as it comes into
 * view, moving what is under it, so a shopper who jumps to "Cargar más productos" and taps would
 * miss it.
 */
const UNTIL_NEAR =
  '[html:not([data-settled])_&]:[content-visibility:auto] [contain-intrinsic-height:auto_19rem] sm:[contain-intrinsic-height:auto_22rem] lg:[contain-intrinsic-height:auto_24rem]'
/** The same on phones and tablets only. */
const UNTIL_NEAR_BELOW_LG =
  'max-lg:[html:not([data-settled])_&]:[content-visibility:auto] max-lg:[contain-intrinsic-height:auto_19rem] sm:max-lg:[contain-intrinsic-height:auto_22rem]'

export function ProductGrid({
  products,
  images,
  belowTheFold = false,
}: {
  products: Card[]
  /**
   * `first-row-first`: the grid opens the page, its first row's images come first (with
   * `cardImagePreloads` in the route's meta). `after-the-rest`: something above is the largest paint.
   */
  images?: 'first-row-first' | 'after-the-rest'
  /**
   * The grid starts below the fold of phones and tablets: there its cards also wait for the page to
   * hydrate (`HIDDEN_UNTIL_HYDRATED`), leaving a slow link to the first view.
   */
  belowTheFold?: boolean
}) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
      {products.map((product, index) => (
        <li key={product.sku} className="flex">
          <ProductCard
            product={product}
            priority={
              images === 'after-the-rest'
                ? 'low'
                : images === 'first-row-first' && index < FIRST_ROW_CARDS
                  ? 'high'
                  : undefined
            }
            waits={[
              index >= FIRST_VIEW_CARDS ? UNTIL_NEAR : belowTheFold ? UNTIL_NEAR_BELOW_LG : '',
              belowTheFold ? HIDDEN_UNTIL_HYDRATED : '',
            ].join(' ')}
          />
        </li>
      ))}
    </ul>
  )
}

/**
 * Loads the next page when it scrolls into view. It is a plain link underneath, so without
 * JavaScript it still reaches more products. With `button`, the same element is also the visible
 * "load more" control (a button once the page runs its JavaScript): one control, not two.
 */
export function Sentinel({
  href,
  onVisible,
  busy,
  button,
}: {
  href: string
  onVisible: () => void
  busy: boolean
  button?: string
}) {
  const ref = useRef<HTMLAnchorElement & HTMLButtonElement>(null)
  const latest = useRef(onVisible)
  latest.current = onVisible
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    const element = ref.current
    if (!element || busy) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current()
      },
      { rootMargin: '400px 0px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
    // A fresh observer for every new page (or element): if the sentinel is still in view after a
    // load, its first report loads the next page, as scrolling it into view would.
  }, [busy, href, hydrated])
  if (button) {
    const className =
      'mx-auto mt-6 block w-fit rounded-full border border-brand-600 px-6 py-2 font-medium text-brand-700 hover:bg-brand-50 disabled:opacity-60'
    return hydrated ? (
      <button
        ref={ref}
        type="button"
        data-testid="sentinel"
        className={className}
        onClick={onVisible}
        disabled={busy}
      >
        {button}
      </button>
    ) : (
      <a ref={ref} href={href} data-testid="sentinel" className={className}>
        {button}
      </a>
    )
  }
  return (
    <a
      ref={ref}
      href={href}
      data-testid="sentinel"
      className="block py-6 text-center text-sm text-gray-500"
      onClick={(event) => {
        event.preventDefault()
        onVisible()
      }}
    >
      {busy ? 'Cargando…' : 'Ver más productos'}
    </a>
  )
}
