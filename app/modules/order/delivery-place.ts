import { IDENTIFICATION_TYPES, type IdentificationType } from './customer-fields.ts'

/**
 * The order desk's texts for where an order goes (its DANE municipality), shared by the desk's
 * page, its action and `setOrderMunicipality`. Safe in the browser: no list of municipalities here.
 */
export const MUNICIPALITY_MESSAGES = {
  missing: 'Este pedido no tiene municipio (DANE). Elígelo para facturar y generar guías.',
  choose: 'Elige un municipio de la lista.',
  saved: 'Municipio guardado.',
  /** The timeline's entry: "Municipio asignado: Medellín, Antioquia (05001)." */
  assigned: (municipality: string, department: string, code: string) =>
    `Municipio asignado: ${municipality}, ${department} (${code}).`,
} as const

/** The desk's form intent that sets an order's municipality. */
export const SET_MUNICIPALITY_INTENT = 'municipio'

/**
 * The shopper's identity document as the desk writes it: "Cédula de ciudadanía 1020304050", just
 * the number on an order from before the type was asked, '' when there is neither.
 */
export function documentText(type: IdentificationType | null, number: string): string {
  return [type ? IDENTIFICATION_TYPES[type] : '', number.trim()].filter(Boolean).join(' ')
}
