import { useRouteLoaderData } from 'react-router'
import { whatsappLink } from '#app/components/footer.tsx'
import { MessageCircle } from '#app/components/icons.tsx'
import { formatCOP } from '#app/utils/money.ts'
import type { loader as storeLayoutLoader } from '../layout.tsx'

/**
 * "Hacer este pedido por WhatsApp", for an order a hold limit refused (a reseller's): the shop's
 * chat opens with the cart written out, so nothing is typed again.
 */
export function OrderByWhatsapp({
  priced,
  total,
}: {
  priced: { product: { name: string }; quantity: number }[]
  total: number
}) {
  const store = useRouteLoaderData<typeof storeLayoutLoader>('routes/tienda/layout')?.store
  if (!store) return null
  const lines = priced.map(({ product, quantity }) => `- ${product.name} × ${quantity}`)
  const text = ['Hola, quiero hacer este pedido:', ...lines, `Total: ${formatCOP(total)}`].join('\n')
  return (
    <a
      href={whatsappLink(store.whatsappNumber, text)}
      target="_blank"
      rel="noopener noreferrer"
      className="flex items-center justify-center gap-2 rounded-full bg-green-600 px-6 py-3 font-semibold text-white hover:bg-green-700"
      data-testid="order-by-whatsapp"
    >
      <MessageCircle className="size-5" aria-hidden="true" />
      Hacer este pedido por WhatsApp
    </a>
  )
}
