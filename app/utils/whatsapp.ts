/**
 * WhatsApp numbers, shared by "Configuraciones", "Mensajes y Notificaciones" and the buyer messages
 * of an order. Pure: safe in the browser. (Chat links: whatsapp-link.ts, on every storefront page.)
 */

/**
 * A Colombian mobile as WhatsApp (wa.me and the Cloud API) wants it: "300 123 4567",
 * "+57 300-123-4567" and "573001234567" all become 573001234567; null for anything else.
 */
export function normalizeWhatsappNumber(raw: string): string | null {
  const digits = raw.replace(/[\s\-().+]/g, '')
  const full = /^3\d{9}$/.test(digits) ? `57${digits}` : digits
  return /^573\d{9}$/.test(full) ? full : null
}
