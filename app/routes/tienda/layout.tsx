import { MessageCircle, ShoppingBag } from '#app/components/icons.tsx'
import { useEffect } from 'react'
import { Link, Outlet } from 'react-router'
import { consentBannerHtml } from '#app/components/consent-banner.server.tsx'
import { Footer } from '#app/components/footer.tsx'
import { whatsappLink } from '#app/utils/whatsapp-link.ts'
import { Header } from '#app/components/header.tsx'
import { MetaPixel } from '#app/components/meta-pixel.tsx'
import { readConsent } from '#app/modules/analytics/consent.ts'
import { listCategories } from '#app/modules/catalog/catalog.server.ts'
import { getStoreInfo } from '#app/modules/settings/settings.server.ts'
import { offeredPaymentMethods } from '#app/modules/checkout/payment-methods.server.ts'
import { paymentMethodsText } from '#app/modules/checkout/payment-methods.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/layout'
import { CART_PATH } from '#app/utils/paths.ts'
import type { TrackedElement } from '#app/modules/analytics/track-names.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const { reads, env, marketing, checkout } = servicesOf(context)
  const paymentMethods = await offeredPaymentMethods(reads.db, checkout.onlinePayments)
  // Read on every request: a change saved in "Configuraciones" shows at once.
  return {
    categories: await listCategories(reads),
    store: await getStoreInfo(reads.db, env),
    // The ways to pay the checkout offers now: the footer names them (Ley 1480, art. 50), worded
    // here so the words stay out of every page's JavaScript; the data policy lists the providers.
    paymentMethods,
    paymentsText: paymentMethodsText(paymentMethods),
    consentBanner: consentBannerHtml(request, readConsent(request.headers.get('Cookie'))),
    // The pixel's id is public (it is in every page that loads it); null: no pixel at all.
    pixel: marketing.settings
      ? { id: marketing.settings.pixelId, scriptUrl: env.META_PIXEL_SCRIPT_URL }
      : null,
  }
}

export default function StoreLayout({ loaderData }: Route.ComponentProps) {
  const { categories, store, consentBanner } = loaderData
  // The banner's script (and, after consent, the tracker) load lazily: the first visit's JavaScript
  // does not grow.
  useEffect(() => void import('#app/components/consent-client.ts'), [])
  return (
    <>
      <MetaPixel pixel={loaderData.pixel} />
      <Header storeName={store.storeName} categories={categories} />
      <main className="mx-auto min-h-[60vh] max-w-6xl px-4 py-4">
        <Outlet />
      </main>
      <Footer store={store} paymentsText={loaderData.paymentsText} />
      <div className="fixed right-4 bottom-4 z-40 flex flex-col gap-3">
        <a
          href={whatsappLink(store.whatsappNumber, store.whatsappText)}
          target="_blank"
          rel="noopener noreferrer"
          className="flex size-14 items-center justify-center rounded-full bg-green-600 text-white shadow-lg hover:bg-green-700"
          aria-label="Escríbenos por WhatsApp"
          data-testid="whatsapp-button"
          data-track={'whatsapp' satisfies TrackedElement}
        >
          <MessageCircle className="size-7" aria-hidden="true" />
        </a>
        <Link
          to={CART_PATH}
          className="flex size-14 items-center justify-center rounded-full bg-brand-600 text-white shadow-lg hover:bg-brand-700"
          aria-label="Ir al carrito"
          data-testid="floating-cart"
        >
          <ShoppingBag className="size-7" aria-hidden="true" />
        </Link>
      </div>
      {/* Server-drawn HTML (app/components/consent-banner.server.tsx), the same on both sides. */}
      <div dangerouslySetInnerHTML={{ __html: consentBanner }} />
    </>
  )
}
