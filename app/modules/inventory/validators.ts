import { z } from 'zod'
import type { FailureWords } from '#app/utils/refusal.ts'
import { isLocationCode, normalizeLocationCode } from './locations.ts'
import { formText } from '#app/utils/form-text.ts'

/** Spanish texts of the stock rules (spec §5 and §8, entry and exit forms). */
export const STOCK_MESSAGES = {
  missingFields: 'Por favor, completa todos los campos antes de enviar.',
  productNotFound: 'Producto no encontrado.',
  quantity: 'La cantidad debe ser un número entero mayor o igual a 1.',
  unitCost: 'El costo unitario debe ser un valor mayor o igual a 0.',
  unitPrice: 'El precio unitario debe ser un valor mayor o igual a 0.',
  locationFormat: 'La ubicación debe tener el formato P1-C1-A1-E1-X1-Y1-Z1.',
  notEnoughStock: 'No hay suficiente stock para la salida.',
  reservedUnits: (available: number, reserved: number) =>
    `No hay suficiente stock disponible para la salida: ${reserved} unidad(es) están reservadas por pedidos y solo ${available} están disponibles.`,
  unknownLocation: (code: string) => `La ubicación ${code} no existe.`,
  notEnoughAtLocation: (code: string) => `No hay suficiente stock en la ubicación ${code}.`,
  notReserved: (sku: string, quantity: number, order: number, reserved: number) =>
    `No se puede enviar el pedido ${order}: necesita ${quantity} unidad(es) reservadas de ${sku} y solo hay ${reserved} reservada(s). Su reserva pudo haberse liberado; revisa el pedido antes de enviarlo.`,
  costMoved:
    'El costo de este producto cambió mientras editabas (por una entrada, salida o envío). Recarga la página y vuelve a escribir el costo; no se guardó ningún cambio.',
  rangeReversed: 'La fecha "Desde" no puede ser posterior a la fecha "Hasta". Corrige el filtro.',
} as const

/** Texts of the entry and exit forms: spec §5 (validation) and §8 (outcome), then our field hints. */
export const STOCK_FORM_MESSAGES = {
  required: STOCK_MESSAGES.missingFields,
  entrySaved: 'Entrada registrada con éxito.',
  entryFailed: 'Hubo un error al registrar la entrada. Intenta nuevamente.',
  exitSaved: 'Salida registrada con éxito.',
  exitFailed: 'Hubo un error al registrar la salida. Intenta nuevamente.',
  productNotFound: STOCK_MESSAGES.productNotFound,
  quantity: STOCK_MESSAGES.quantity,
  quantityMax: 'La cantidad no puede ser mayor que 100.000.',
  priceNumber: (label: string) => `${label} debe ser un número.`,
  priceMax: (label: string) => `${label} no puede ser mayor que $ 20.000.000.`,
  locationFormat: STOCK_MESSAGES.locationFormat,
  tooLong: (label: string) => `${label} es demasiado largo.`,
} as const

/** The outcome of a failed entry or exit post, in the route's words (spec §8). */
export const ENTRY_FAILURE: FailureWords = { unexpected: STOCK_FORM_MESSAGES.entryFailed }
export const EXIT_FAILURE: FailureWords = { unexpected: STOCK_FORM_MESSAGES.exitFailed }

/** Same ceiling as the product form's prices: a unit price in centavos fits PostgreSQL `integer`. */
const MAX_PESOS = 20_000_000
/**
 * A movement bigger than this is a typo. A movement's total (quantity × unit price) passes
 * `integer` well below these ceilings, so the ledger keeps it as `bigint`; at most 2·10^14
 * centavos, exact in a JavaScript number.
 */
const MAX_QUANTITY = 100_000

/** The fields of both forms, as named in the posted form. */
export type StockFormField = 'sku' | 'quantity' | 'unitPrice' | 'location' | 'receipt' | 'note'
export type StockFieldErrors = Partial<Record<StockFormField, string>>

/** What the admin typed, kept as text so a refused form shows it again unchanged. */
export type StockFormValues = Record<StockFormField, string> & { editPrice: boolean }

const blank = (value: unknown) => value == null || (typeof value === 'string' && value.trim() === '')
const required = (value: unknown) => (blank(value) ? undefined : value)

/** A typed number: missing reads the spec's "completa todos los campos", junk reads `notNumber`. */
const typedNumber = (notNumber: string) =>
  z
    .string({ message: STOCK_FORM_MESSAGES.required })
    .transform(Number)
    .pipe(z.number({ message: notNumber }).refine(Number.isFinite, { message: notNumber }))

const quantity = z.preprocess(
  required,
  typedNumber(STOCK_FORM_MESSAGES.quantity).pipe(
    z
      .number()
      .int({ message: STOCK_FORM_MESSAGES.quantity })
      .min(1, { message: STOCK_FORM_MESSAGES.quantity })
      .max(MAX_QUANTITY, { message: STOCK_FORM_MESSAGES.quantityMax }),
  ),
)

/** Pesos as typed (PesosField: up to two decimals), answered in integer centavos. */
const centavos = (label: string, negative: string) =>
  z.preprocess(
    required,
    typedNumber(STOCK_FORM_MESSAGES.priceNumber(label)).pipe(
      z
        .number()
        .min(0, { message: negative })
        .max(MAX_PESOS, { message: STOCK_FORM_MESSAGES.priceMax(label) })
        .transform((pesos) => Math.round(pesos * 100)),
    ),
  )

const location = z.preprocess(
  required,
  z
    .string({ message: STOCK_FORM_MESSAGES.required })
    .transform(normalizeLocationCode)
    .refine(isLocationCode, { message: STOCK_FORM_MESSAGES.locationFormat }),
)

const text = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: STOCK_FORM_MESSAGES.tooLong(label) })

const sku = z.preprocess(
  required,
  z.string({ message: STOCK_FORM_MESSAGES.required }).trim().max(60, STOCK_FORM_MESSAGES.productNotFound),
)

export const EntryFormSchema = z.object({
  sku,
  quantity,
  unitCost: centavos('El costo unitario', STOCK_MESSAGES.unitCost),
  location,
  receipt: text('El recibo', 200),
  note: text('La nota', 1000),
})
export type EntryForm = z.infer<typeof EntryFormSchema>

/** Without "Editar Precio" the unit price is the product's cost, read by the server, so it may be blank. */
const exitFields = { sku, quantity, location, receipt: text('El recibo', 200), note: text('La nota', 1000) }
export const ExitFormSchema = z.discriminatedUnion('editPrice', [
  z.object({
    ...exitFields,
    editPrice: z.literal(true),
    unitPrice: centavos('El precio unitario', STOCK_MESSAGES.unitPrice),
  }),
  z.object({ ...exitFields, editPrice: z.literal(false), unitPrice: z.undefined() }),
])
export type ExitForm = z.infer<typeof ExitFormSchema>

export type StockFormParse<T> =
  | { success: true; data: T; values: StockFormValues }
  | { success: false; message: string; fieldErrors: StockFieldErrors; values: StockFormValues }

/** The posted fields as text (anything but a string reads as empty). */
export function stockFormValues(form: FormData): StockFormValues {
  const read = (name: string) => formText(form, name)
  return {
    sku: read('sku').trim(),
    quantity: read('quantity'),
    unitPrice: read('unitPrice'),
    location: read('location'),
    receipt: read('receipt'),
    note: read('note'),
    editPrice: read('editPrice') === 'on',
  }
}

/**
 * The form's one message (spec §5: any missing field reads "Por favor, completa todos los
 * campos…", before anything else) and each field's own message, shown beside it.
 */
function failed(error: z.ZodError, values: StockFormValues): StockFormParse<never> {
  const fieldErrors: StockFieldErrors = {}
  for (const issue of error.issues) {
    const field = (issue.path[0] === 'unitCost' ? 'unitPrice' : issue.path[0]) as StockFormField
    fieldErrors[field] ??= issue.message
  }
  const missing = Object.values(fieldErrors).includes(STOCK_FORM_MESSAGES.required)
  return {
    success: false,
    message: missing
      ? STOCK_FORM_MESSAGES.required
      : (error.issues[0]?.message ?? STOCK_FORM_MESSAGES.required),
    fieldErrors,
    values,
  }
}

/** Entry form (spec §5): product, quantity ≥ 1, unit cost ≥ 0 (field `unitPrice`) and location required. */
export function parseEntryForm(form: FormData): StockFormParse<EntryForm> {
  const values = stockFormValues(form)
  const parsed = EntryFormSchema.safeParse({ ...values, unitCost: values.unitPrice })
  return parsed.success ? { success: true, data: parsed.data, values } : failed(parsed.error, values)
}

/** Exit form (spec §5): product, quantity and location required; the unit price too once "Editar Precio" is ticked. */
export function parseExitForm(form: FormData): StockFormParse<ExitForm> {
  const values = stockFormValues(form)
  const parsed = ExitFormSchema.safeParse({
    ...values,
    unitPrice: values.editPrice ? values.unitPrice : undefined,
  })
  return parsed.success ? { success: true, data: parsed.data, values } : failed(parsed.error, values)
}

/** Kardex filters: `desde` and `hasta` as YYYY-MM-DD days in Bogotá (inclusive), `pagina` from 1. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
  .optional()
  .catch(undefined)

export const KardexFiltersSchema = z.object({
  from: day,
  to: day,
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
})
export type KardexFilters = z.infer<typeof KardexFiltersSchema>

/** Why a day range shows nothing whatever the ledger holds ("desde" after "hasta"), or null. */
export function kardexRangeMessage({ from, to }: Pick<KardexFilters, 'from' | 'to'>): string | null {
  return from && to && from > to ? STOCK_MESSAGES.rangeReversed : null
}

export function kardexFiltersFrom(params: URLSearchParams): KardexFilters {
  return KardexFiltersSchema.parse({
    from: params.get('desde') ?? undefined,
    to: params.get('hasta') ?? undefined,
    page: params.get('pagina') ?? 1,
  })
}
