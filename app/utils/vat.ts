/**
 * IVA (Colombia's VAT) as a product or the shop carries it on a DIAN electronic invoice: excluded
 * (outside the tax), exempt (taxed at 0 %), or taxed at 5 % or 19 %. Shared by the catalogue (each
 * product's own rate), "Configuraciones" (the shop's default) and the invoices.
 */
export const VAT_RATES = ['excluded', 'exempt', '5', '19'] as const

export type VatRate = (typeof VAT_RATES)[number]

/** How the back office names each rate. */
export const VAT_LABELS: Record<VatRate, string> = {
  excluded: 'Excluido',
  exempt: 'Exento',
  '5': '5 %',
  '19': '19 %',
}

export function isVatRate(value: unknown): value is VatRate {
  return typeof value === 'string' && (VAT_RATES as readonly string[]).includes(value)
}
