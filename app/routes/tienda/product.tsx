import { Play, ShoppingBag, Truck, Zap } from '#app/components/icons.tsx'
import { data, Link, useNavigate } from 'react-router'
import { Carousel, VideoSlide } from '#app/components/carousel.tsx'
import { CHECKOUT_PATH, categoryPath, productPath } from '#app/utils/paths.ts'
import { BuyPayBadge, Price } from '#app/components/price.tsx'
import { ProductImage } from '#app/components/product-image.tsx'
import { cart } from '#app/modules/cart/cart-store.ts'
import type { CartIntent } from '#app/modules/cart/cart.ts'
import { CartForm } from '#app/components/cart-form.tsx'
import { getProductDetail } from '#app/modules/catalog/catalog.server.ts'
import { errorMeta } from '#app/components/not-found.tsx'
import { seo } from '#app/utils/seo.ts'
import { productDescription } from '#app/utils/seo-defaults.ts'
import { redirectToCanonical } from '#app/utils/canonical.server.ts'
import { jsonLdText, productBreadcrumb, productJsonLd } from '#app/modules/catalog/structured-data.ts'
import { imagePreload } from '#app/utils/image-preload.ts'
import { readStoreShipping } from '#app/modules/settings/settings.server.ts'
import { productShippingNotice } from '#app/modules/settings/shipping-notices.server.ts'
import { withShelfPrices } from '#app/modules/promotions/shelf.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/product'
import type { TrackedElement } from '#app/modules/analytics/track-names.ts'

export { StoreErrorBoundary as ErrorBoundary } from '#app/components/not-found.tsx'

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const { reads, env } = servicesOf(context)
  const detail = await getProductDetail(reads, params.sku)
  if (!detail) throw data(null, { status: 404 })
  // The SKU is the key: a missing or old slug is a 301 to the canonical URL (before any other read).
  redirectToCanonical(params.slug, detail.slug, productPath(detail), url)
  // Worded here from the saved settings: free "hoy" only when this product ships free (the
  // threshold is judged before promotions, as the order judges it).
  const shippingNotice = productShippingNotice(detail.finalPrice, await readStoreShipping(reads.db, env))
  // Its price and badges with the running automatic promotions (like its own `descuento`).
  const [product] = await withShelfPrices(reads.db, [detail])
  if (!product) throw data(null, { status: 404 })
  // Built here so its code stays on the server; `<` escaped so it cannot close the script tag.
  const shop = { storeName: env.STORE_NAME, origin: env.publicUrl }
  const jsonLd = jsonLdText(productJsonLd(product, shop))
  const breadcrumbJsonLd = jsonLdText(productBreadcrumb(product, shop))
  // "SEO": the description the owner wrote, else the description's start (worded here, so the
  // storefront's scripts carry no defaults).
  const metaDescription = product.seoDescription ?? productDescription(product.description)
  return { product, jsonLd, breadcrumbJsonLd, metaDescription, shippingNotice }
}

/** The gallery is half the page from tablets up, the whole width on a phone. */
const PRODUCT_IMAGE_SIZES = '(min-width: 768px) 50vw, 100vw'

const pesos = (centavos: number) => (centavos / 100).toFixed(2)

/** Link previews without a product photo show the shop's logo (a JPEG, as WhatsApp wants). */
const FALLBACK_SHARE_IMAGE = { src: '/og-image.jpg', width: 1200, height: 630, type: 'image/jpeg' }

export const meta: Route.MetaFunction = ({ data: loaderData, error, matches }) => {
  // A leaf route: an error here is its own boundary showing.
  if (error || !loaderData) return errorMeta(error)
  const { product, metaDescription: description } = loaderData
  // "SEO": the title the owner wrote (the whole <title>), else "{name} | {shop}".
  const image = product.shareImage ?? FALLBACK_SHARE_IMAGE
  const [first] = product.media
  return seo(matches, {
    title: product.seoTitle ?? product.name,
    fullTitle: product.seoTitle,
    description,
    path: productPath(product),
    image: image.src,
    type: 'product',
    extra: [
      // Right after og:image, which they describe.
      { property: 'og:image:type', content: image.type },
      { property: 'og:image:width', content: String(image.width) },
      { property: 'og:image:height', content: String(image.height) },
      { property: 'og:image:alt', content: product.name },
      { property: 'product:price:amount', content: pesos(product.finalPrice) },
      { property: 'product:price:currency', content: 'COP' },
      { property: 'product:availability', content: product.available > 0 ? 'in stock' : 'out of stock' },
      ...(first?.kind === 'image' ? [imagePreload(first.image, PRODUCT_IMAGE_SIZES)] : []),
    ],
  })
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, jsonLd, breadcrumbJsonLd, shippingNotice } = loaderData
  const navigate = useNavigate()
  const soldOut = product.available <= 0
  const slides = product.media.map((item, index) =>
    item.kind === 'video' ? (
      <VideoSlide key={index} src={item.src} className="aspect-square w-full bg-black object-cover" />
    ) : (
      <ProductImage
        key={index}
        image={item.image}
        sizes={PRODUCT_IMAGE_SIZES}
        className="aspect-square w-full object-cover"
        priority={index === 0 ? 'high' : undefined}
      />
    ),
  )
  const thumbnails = product.media.map((item, index) =>
    item.kind === 'video' ? (
      <span key={index} className="flex h-full w-full items-center justify-center bg-ink text-white">
        <Play className="size-6" aria-hidden="true" />
      </span>
    ) : (
      <img
        key={index}
        src={item.image.thumb}
        alt=""
        width={64}
        height={64}
        className="h-full w-full object-cover"
        loading="lazy"
      />
    ),
  )

  return (
    <article className="grid gap-8 md:grid-cols-2" data-testid="product-detail">
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{
          __html: jsonLd,
        }}
      />
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{
          __html: breadcrumbJsonLd,
        }}
      />
      <div>
        {slides.length ? (
          <Carousel label={`Imágenes de ${product.name}`} slides={slides} thumbnails={thumbnails} />
        ) : (
          <div className="aspect-square rounded-2xl bg-brand-50" />
        )}
      </div>
      <div className="flex flex-col gap-4">
        <nav aria-label="Categorías" className="flex flex-wrap gap-2 text-sm">
          {product.categories.map((category) => (
            <Link key={category.id} to={categoryPath(category)} className="text-brand-700 hover:underline">
              {category.name}
            </Link>
          ))}
        </nav>
        <h1 className="text-2xl font-semibold">{product.name}</h1>
        <Price
          price={product.price}
          finalPrice={product.finalPrice}
          discountPercent={product.discountPercent}
          size="lg"
        />
        <BuyPayBadge buyPay={product.buyPay} className="self-start px-3 py-1 text-sm" />
        <p className={soldOut ? 'font-semibold text-red-600' : 'text-sm text-gray-700'} data-testid="stock">
          {soldOut
            ? 'Agotado'
            : `Stock: ${product.available} ${product.available === 1 ? 'unidad' : 'unidades'}`}
        </p>
        <p
          className="flex items-center gap-2 rounded-xl bg-green-50 p-3 text-sm text-green-800"
          data-testid="free-shipping-today"
        >
          <Truck className="size-5 shrink-0" aria-hidden="true" />
          {shippingNotice}
        </p>
        <CartForm
          sku={product.sku}
          className="flex flex-col gap-3 sm:flex-row"
          onIntent={(intent) => {
            if (intent !== 'buy-now') return void cart.add(product)
            cart.clear()
            if (cart.add(product)) navigate(CHECKOUT_PATH)
          }}
        >
          <button
            type="submit"
            name="intent"
            value={'buy-now' satisfies CartIntent}
            disabled={soldOut}
            data-track={'comprar-ahora' satisfies TrackedElement}
            className="flex flex-1 items-center justify-center gap-2 rounded-full bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-gray-300 disabled:text-gray-600"
          >
            <Zap className="size-5" aria-hidden="true" />
            COMPRAR AHORA
          </button>
          <button
            type="submit"
            name="intent"
            value={'add' satisfies CartIntent}
            disabled={soldOut}
            data-track={'agregar-carrito' satisfies TrackedElement}
            className="flex flex-1 items-center justify-center gap-2 rounded-full border border-brand-600 px-6 py-3 font-semibold text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:border-gray-300 disabled:text-gray-500"
          >
            <ShoppingBag className="size-5" aria-hidden="true" />
            Agregar al carrito
          </button>
        </CartForm>
        <section aria-labelledby="descripcion">
          <h2 id="descripcion" className="mb-1 font-semibold">
            Descripción
          </h2>
          <p className="whitespace-pre-line text-gray-700">{product.description}</p>
        </section>
        {product.personalUse ? (
          <p className="text-sm text-gray-600" data-testid="personal-use">
            Producto de uso personal: no admite derecho de retracto (Ley 1480 de 2011, art. 47). Si llega
            defectuoso, tienes la garantía legal.
          </p>
        ) : null}
      </div>
    </article>
  )
}
