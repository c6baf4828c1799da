/** Money is integer centavos everywhere; these helpers convert at the edges. */

const copFormatter = new Intl.NumberFormat('es-CO', {
  style: 'currency',
  currency: 'COP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
})

/** "$ 45.000,00" — the es-CO display with two decimals that the spec asks for. */
export function formatCOP(centavos: number): string {
  return copFormatter.format(centavos / 100)
}

const wholeCopFormatter = new Intl.NumberFormat('es-CO', {
  style: 'currency',
  currency: 'COP',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
})

/** "$ 100.000" — whole pesos, for notices such as "Envío gratis en compras superiores a…". */
export function formatWholeCOP(centavos: number): string {
  return wholeCopFormatter.format(Math.round(centavos / 100))
}

export function pesosToCentavos(pesos: number): number {
  return Math.round(pesos * 100)
}

/** Whole pesos, as Mercado Pago wants them for COP. */
export function centavosToWholePesos(centavos: number): number {
  return Math.round(centavos / 100)
}

/** Percent of an amount in centavos, rounded to the centavo. */
export function percentOf(centavos: number, percent: number): number {
  return Math.round((centavos * percent) / 100)
}
