/**
 * Whole pesos as a shop owner types them in a text field: "15000", "15.000" or "$ 15.000" (the
 * format "Configuraciones" takes for the shipping cost). Pure, for forms in the browser and on the
 * server; money leaves here in centavos.
 */

/** The largest amount a form takes: centavos stay well within the orders' integer columns. */
export const MAX_TYPED_PESOS = 20_000_000

export type TypedPesos =
  { ok: true; centavos: number } | { ok: false; reason: 'blank' | 'format' | 'tooLarge' }

export function parseTypedPesos(raw: string): TypedPesos {
  const text = raw.replace(/\s+/g, '').replace(/^\$/, '')
  if (text === '') return { ok: false, reason: 'blank' }
  if (!/^(\d{1,9}|\d{1,3}(\.\d{3}){1,2})$/.test(text)) return { ok: false, reason: 'format' }
  const pesos = Number(text.replaceAll('.', ''))
  if (pesos > MAX_TYPED_PESOS) return { ok: false, reason: 'tooLarge' }
  return { ok: true, centavos: pesos * 100 }
}

/** Centavos as the owner types whole pesos back: 1500000 → "15.000". */
export function typedPesosText(centavos: number): string {
  return String(Math.round(centavos / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.')
}
