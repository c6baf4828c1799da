import type { StoreInfo } from '#app/modules/settings/settings.server.ts'
import { DATA_POLICY_PATH, ORDER_LOOKUP_PATH } from '#app/utils/paths.ts'
import { whatsappLink } from '#app/utils/whatsapp-link.ts'

/**
 * Ley 1480 de 2011, art. 50: who sells, how to reach them, how to pay, how long delivery takes, and
 * the rights of withdrawal and payment reversal with where to use them.
 */
export function Footer({ store, paymentsText }: { store: StoreInfo; paymentsText: string }) {
  const { seller } = store
  return (
    <footer className="mt-16 border-t border-brand-100 bg-brand-50 text-sm text-gray-700">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3">
        <section>
          <h2 className="mb-2 font-semibold text-ink">{store.storeName}</h2>
          <p>{seller.legalName}</p>
          <p>NIT {seller.nit}</p>
          <p>{seller.address}</p>
        </section>
        <section>
          <h2 className="mb-2 font-semibold text-ink">Contacto</h2>
          <p>
            WhatsApp:{' '}
            <a className="underline" href={whatsappLink(seller.phone, store.whatsappText)}>
              +{seller.phone}
            </a>
          </p>
          <p>
            Correo:{' '}
            <a className="underline" href={`mailto:${seller.email}`}>
              {seller.email}
            </a>
          </p>
          <p>Pagos: {paymentsText}. Precios en pesos colombianos (COP) con impuestos incluidos.</p>
          <p data-testid="delivery-time">Tiempo de entrega: {store.deliveryTime}</p>
        </section>
        <section>
          <h2 className="mb-2 font-semibold text-ink">Derecho de retracto</h2>
          <p>
            Tienes 5 días hábiles desde la entrega para retractarte de tu compra (Ley 1480 de 2011, art. 47),
            y 5 días hábiles para pedir la reversión de un pago en línea (art. 51). Pídelo en la página de tu
            pedido:{' '}
            <a className="underline" href={ORDER_LOOKUP_PATH}>
              Consulta tu pedido
            </a>
            .
          </p>
          <p className="mt-2">
            <a className="underline" href={`${DATA_POLICY_PATH}?preferencias`} data-consent-open="">
              Preferencias de privacidad
            </a>
          </p>
        </section>
      </div>
    </footer>
  )
}
