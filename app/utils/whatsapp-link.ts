// Apart from whatsapp.ts: every storefront page carries this (vite.config.ts), not the number rules.
/** A wa.me chat with `number` (digits with the country code) with `text` already typed. */
export function whatsappLink(number: string, text: string): string {
  return `https://wa.me/${number}?text=${encodeURIComponent(text)}`
}
