import { MessageCircle } from '#app/components/icons.tsx'

/**
 * "Hacer este pedido por WhatsApp", for an order a hold limit refused (a reseller's): the shop's chat
 * opens with the cart written out (`orderByWhatsappText`, on the server), so nothing is typed again.
 */
export function OrderByWhatsapp({ href }: { href: string }) {
  return (
    <a
      href={href}
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
