import { formatCOP } from '#app/utils/money.ts'

/**
 * What the shopper reads when a discount code gives nothing (cart and checkout). A `when` is a
 * `bogotaMoment`, which ends in "a. m." or "p. m.": the sentence needs no other period.
 */
export const CODE_MESSAGES = {
  unknown: (code: string) => `El código ${code} no existe. Revisa cómo lo escribiste.`,
  notStarted: (code: string, when: string) => `El código ${code} empieza a valer el ${when}`,
  expired: (code: string, when: string) => `El código ${code} venció el ${when}`,
  usedUp: (code: string) => `El código ${code} ya se usó todas las veces permitidas.`,
  usedByCustomer: (code: string) => `Ya usaste el código ${code} todas las veces permitidas.`,
  minimum: (code: string, minimum: number, missing: number) =>
    `El código ${code} vale en compras desde ${formatCOP(minimum)}: te faltan ${formatCOP(missing)}.`,
  products: (code: string) => `El código ${code} no aplica a los productos de tu carrito.`,
  nothing: (code: string) => `El código ${code} no le quita nada a este pedido.`,
  beaten: (code: string, promotion: string) =>
    `El código ${code} no se suma a «${promotion}», que ya te da un mejor precio.`,
  tooLong: 'Escribe un código de hasta 40 letras y números.',
  applied: (code: string) => `Código ${code} aplicado.`,
  removed: 'Quitamos el código de descuento.',
} as const

/** What a code is made of, once in upper case without spaces (the admin form keeps to it). */
export const CODE_PATTERN = /^[A-Z0-9Ñ_-]+$/u

/** The longest code the shop accepts (and the field takes). */
export const CODE_MAX_LENGTH = 40
