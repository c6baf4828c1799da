import { CreditCard, MessageCircle, ShieldCheck, Truck } from '#app/components/icons.tsx'
import { Carousel, VideoSlide } from '#app/components/carousel.tsx'
import { cardImagePreloads, FIRST_ROW_CARDS, ProductGrid, Sentinel } from '#app/components/product-grid.tsx'
import { HydrateLater } from '#app/components/hydrate-later.tsx'
import { useMoreProducts } from '#app/components/use-more-products.ts'
import {
  decodeShuffleCursor,
  listBestSellers,
  type ProductCard,
  SHUFFLE_KEY_SPACE,
} from '#app/modules/catalog/catalog.server.ts'
import { shuffledPage } from '#app/modules/catalog/pages.server.ts'
import { BEST_SELLERS, HOME_FIRST_PAGE } from '#app/modules/catalog/paging.ts'
import { listBanners, type Banner } from '#app/modules/settings/banners.server.ts'
import { seo } from '#app/utils/seo.ts'
import { HIGH_FETCH_PRIORITY, imagePreload } from '#app/utils/image-preload.ts'
import type { MetaDescriptor } from 'react-router'
import { readStoreShipping } from '#app/modules/settings/settings.server.ts'
import { freeShippingBadgeText } from '#app/modules/settings/shipping-notices.server.ts'
import { withShelfPage, withShelfPrices } from '#app/modules/promotions/shelf.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { readSeoSettings } from '#app/modules/settings/seo-settings.server.ts'
import type { Route } from './+types/home'

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  seo(matches, {
    title: 'Collares, aretes y accesorios',
    description:
      'Collares, aretes, pulseras y anillos con envío a toda Colombia y pago contra entrega. Compra segura en línea.',
    path: '/',
    extra: [
      // Google Search Console's ownership check, from "SEO" (its token checked when saved).
      ...(loaderData?.googleVerification
        ? [{ name: 'google-site-verification', content: loaderData.googleVerification }]
        : []),
      ...(loaderData ? firstViewPreloads(loaderData) : []),
    ],
  })

export async function loader({ url, context }: Route.LoaderArgs) {
  const { reads, env } = servicesOf(context)
  const cursor = decodeShuffleCursor(url.searchParams.get('cursor')) ?? {
    seed: Math.floor(Math.random() * SHUFFLE_KEY_SPACE),
  }
  const banners = await listBanners(reads)
  // Cards carry the running automatic promotions' prices and badges (one read when none runs).
  const now = new Date()
  const bestSellers = await withShelfPrices(reads.db, await listBestSellers(reads, BEST_SELLERS), now)
  // The "Envío gratis" badge says when it applies, from the saved shipping settings.
  const freeShipping = freeShippingBadgeText(await readStoreShipping(reads.db, env))
  const page = await withShelfPage(reads.db, await shuffledPage(reads, cursor, HOME_FIRST_PAGE), now)
  const { seoGoogleVerification } = await readSeoSettings(reads.db)
  return { banners, bestSellers, freeShipping, page, googleVerification: seoGoogleVerification }
}

/** Spec §1's four badges; "Envío gratis" says when it applies (the shop's shipping settings). */
function badges(freeShipping: string) {
  return [
    { icon: Truck, title: 'Pago contra entrega', text: 'A toda Colombia' },
    { icon: MessageCircle, title: 'Contáctanos por WhatsApp', text: 'Te asesoramos en tu compra' },
    { icon: CreditCard, title: 'Envío gratis', text: freeShipping },
    { icon: ShieldCheck, title: 'Pagos seguros', text: 'Con Mercado Pago' },
  ]
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { banners, bestSellers, page, freeShipping } = loaderData
  const more = useMoreProducts(page)
  return (
    <div className="flex flex-col gap-10">
      {banners.length ? (
        <Carousel
          label="Promociones"
          autoplay
          // The first banner is the home's largest paint: the others leave a slow link to it.
          laterSlidesWait
          slides={banners.map((banner, index) => (
            <BannerSlide key={banner.id} banner={banner} priority={index === 0} />
          ))}
        />
      ) : null}

      <section aria-label="Beneficios" className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {badges(freeShipping).map(({ icon: Icon, title, text }) => (
          <div
            key={title}
            className="flex items-center gap-3 rounded-2xl bg-brand-50 p-3"
            data-testid={title === 'Envío gratis' ? 'free-shipping-badge' : undefined}
          >
            <Icon className="size-7 shrink-0 text-brand-600" aria-hidden="true" />
            <div>
              <p className="text-sm font-semibold">{title}</p>
              <p className="text-xs text-gray-600">{text}</p>
            </div>
          </div>
        ))}
      </section>

      <HydrateLater>
        {bestSellers.length ? (
          <section aria-labelledby="mas-vendidos" data-testid="best-sellers">
            <h2 id="mas-vendidos" className="mb-4 text-xl font-semibold">
              Más vendidos
            </h2>
            {/* Below a banner, the cards leave the bandwidth of a slow link to it (the largest paint). */}
            <ProductGrid
              products={bestSellers}
              images={banners.length ? 'after-the-rest' : 'first-row-first'}
            />
          </section>
        ) : null}
      </HydrateLater>

      <HydrateLater>
        <section aria-labelledby="seguro-te-gusta" data-testid="you-may-like">
          <h2 id="seguro-te-gusta" className="mb-4 text-xl font-semibold">
            Seguro te gusta
          </h2>
          {more.items.length ? (
            // Under a banner and the best sellers, this grid starts below the fold of phones and tablets.
            <ProductGrid products={more.items} belowTheFold={banners.length > 0 && bestSellers.length > 0} />
          ) : (
            <p>No hay productos</p>
          )}
          {more.next ? (
            <Sentinel
              href={`?${more.next}`}
              onVisible={more.loadMore}
              busy={more.busy}
              button="Cargar más productos"
            />
          ) : null}
        </section>
      </HydrateLater>
    </div>
  )
}

/** What the banner's `<picture>` picks: the phone image below 700 px, else the wide one. */
const PHONE_BANNER_MEDIA = '(max-width: 699px)'
const PHONE_BANNER_SIZES = '100vw'
const WIDE_BANNER_SIZES = '(min-width: 1152px) 1152px, 100vw'

/**
 * The first banner is the home's largest paint: preloaded from the document's head with the image
 * the `<picture>` will choose. Without banners, the first best sellers open the page instead.
 */
function firstViewPreloads({
  banners,
  bestSellers,
}: {
  banners: Banner[]
  bestSellers: ProductCard[]
}): MetaDescriptor[] {
  const [banner] = banners
  if (!banner) return cardImagePreloads(bestSellers, FIRST_ROW_CARDS)
  if (banner.kind === 'video') return []
  if (!banner.mobile) return [imagePreload(banner.desktop, WIDE_BANNER_SIZES)]
  return [
    imagePreload(banner.mobile, PHONE_BANNER_SIZES, PHONE_BANNER_MEDIA),
    imagePreload(banner.desktop, WIDE_BANNER_SIZES, '(min-width: 700px)'),
  ]
}

function BannerSlide({ banner, priority }: { banner: Banner; priority: boolean }) {
  const content =
    banner.kind === 'video' ? (
      <VideoSlide src={banner.src} className="aspect-[8/3] w-full object-cover" />
    ) : (
      <picture>
        {banner.mobile ? (
          <source media={PHONE_BANNER_MEDIA} srcSet={banner.mobile.srcSet} sizes={PHONE_BANNER_SIZES} />
        ) : null}
        <img
          src={banner.desktop.src}
          srcSet={banner.desktop.srcSet}
          sizes={WIDE_BANNER_SIZES}
          width={banner.desktop.width}
          height={banner.desktop.height}
          alt={banner.alt}
          loading={priority ? 'eager' : 'lazy'}
          {...(priority ? HIGH_FETCH_PRIORITY : {})}
          className="h-auto w-full object-cover max-[699px]:aspect-square"
        />
      </picture>
    )
  return banner.link ? <a href={banner.link}>{content}</a> : content
}
