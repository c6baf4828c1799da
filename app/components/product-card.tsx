import { ShoppingBag } from '#app/components/icons.tsx'
import { Link } from 'react-router'
import { cart } from '#app/modules/cart/cart-store.ts'
import type { CartIntent } from '#app/modules/cart/cart.ts'
import { CartForm } from './cart-form.tsx'
import type { ProductCard as Card } from '#app/modules/catalog/catalog.server.ts'
import { truncateName } from '#app/modules/catalog/pricing.ts'
import { BuyPayBadge, Price } from './price.tsx'
import { ProductImage } from './product-image.tsx'
import { productPath } from '#app/utils/paths.ts'
import type { TrackedElement } from '#app/modules/analytics/track-names.ts'

/** How wide a card's image is drawn: what its `srcSet` and a preload of it choose by. */
export const CARD_IMAGE_SIZES = '(min-width: 1024px) 22vw, (min-width: 640px) 30vw, 46vw'

export function ProductCard({
  product,
  priority,
  waits = '',
}: {
  product: Card
  /** Of its image (`ProductImage`). */
  priority?: 'high' | 'low'
  /** Classes that keep a card below the fold out of rendering for a while (`ProductGrid`). */
  waits?: string
}) {
  return (
    <article
      className={`group relative flex w-full flex-col overflow-hidden rounded-2xl border border-brand-100 bg-white shadow-sm ${waits}`}
      data-testid="product-card"
      data-sku={product.sku}
    >
      <Link
        to={productPath(product)}
        className="block"
        prefetch="intent"
        data-track={'producto' satisfies TrackedElement}
      >
        <div className="relative aspect-square overflow-hidden bg-brand-50">
          <ProductImage
            image={product.image}
            sizes={CARD_IMAGE_SIZES}
            className="h-full w-full object-cover transition-transform duration-300 group-hover:scale-105"
            priority={priority}
          />
          {product.discountPercent > 0 ? (
            <span
              className="absolute top-2 left-2 rounded-full bg-red-600 px-2 py-0.5 text-xs font-bold text-white"
              data-testid="discount-badge"
            >
              -{product.discountPercent}%
            </span>
          ) : null}
          <BuyPayBadge buyPay={product.buyPay} className="absolute top-2 right-2" />
        </div>
        <h3 className="px-3 pt-2 text-sm font-medium" title={product.name}>
          {truncateName(product.name)}
        </h3>
      </Link>
      <div className="mt-auto flex flex-col gap-2 px-3 pt-1 pb-3">
        <Price
          price={product.price}
          finalPrice={product.finalPrice}
          discountPercent={product.discountPercent}
        />
        <CartForm sku={product.sku} onIntent={() => cart.add(product)} className="flex flex-col">
          <button
            type="submit"
            name="intent"
            value={'add' satisfies CartIntent}
            className="flex items-center justify-center gap-1.5 rounded-full bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700 active:scale-95"
            aria-label={`Agregar ${product.name} al carrito`}
          >
            <ShoppingBag className="size-4" aria-hidden="true" />
            Agregar
          </button>
        </CartForm>
      </div>
    </article>
  )
}
