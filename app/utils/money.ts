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
