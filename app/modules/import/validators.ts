import { z } from 'zod'
import {
  ANALYTICS_MESSAGES,
  hasControlCharacters,
  MAX_NAME_LENGTH,
} from '#app/modules/analytics/validators.ts'
import { CategoryNameSchema, MAX_PRICE_PESOS, ProductFieldsSchema } from '#app/modules/catalog/validators.ts'
import { EntryFormSchema } from '#app/modules/inventory/validators.ts'
import { CUSTOMER_FIELD_LIMITS, normalizeCustomerText } from '#app/modules/order/customer-fields.ts'
import { cleanText } from '#app/utils/text.ts'

/**
 * The original shop's documents (spec §7) as an export holds them: one JSON object whose keys are
 * document paths and whose values are the documents' fields, e.g.
 * `{ "productos/productos_bloque_1": { "productos": [...] }, "productos/categorias": { "categorias":
 * [...] }, "movimientos/ABC-GEN-1A2B3C4D": { "movimientos": [...] }, "pedidos": { "<id>": {...} },
 * "clickEvents/2026-01": { "<elemento>": { "click_count": 3 } }, "pageViews/2026-01": { "<página>":
 * { "visits": 2, "totalTime": 40 } } }`. The orders may also come one per key (`"pedidos/<id>"`).
 * Money is pesos there (centavos here); numbers typed into the original's forms may be strings.
 *
 * Every field Vitrina's own forms take is held to those forms' rules (the catalog's product and
 * category schemas, the inventory entry form's, the order's customer bounds): an import must not
 * bring what the shop itself would never accept.
 */

/** The largest PostgreSQL `integer`: counts, units, order amounts, a product's stock and costs. */
export const MAX_INTEGER = 2_147_483_647

/**
 * How deep one record (a product, category, movement, order or month) may nest. The original's
 * deepest is a product's `ubicaciones`: a list of objects, three levels; past this it is not the
 * original's format, and deeper values would overflow the stack of the code that reads them.
 */
export const MAX_RECORD_DEPTH = 8

/**
 * Ids that no form of Vitrina types (a category's or an order's): the original's are Firestore ids
 * (20 characters) or "Categoria_<ms>"; anything longer is not an id, and it would end up in URLs.
 */
export const MAX_ID_LENGTH = 128

/**
 * The years a date may fall in. Outside them it is a typo or junk: `new Date(1e20)` is invalid and
 * a year like 275760 is past what PostgreSQL's timestamps hold.
 */
export const FIRST_YEAR = 2000
export const LAST_YEAR = 2100

/** A units field (stock, units in and out, a location's stock, an order line): a typo past this. */
const MAX_UNITS = 100_000_000

const INVALID_CHARACTER =
  'tiene un carácter que la base de datos no admite (un carácter nulo o un carácter Unicode incompleto)'
const MAYBE_UNSTORABLE = /[\0\ud800-\udfff]/

/** Whether PostgreSQL stores the text as it is (no NUL, no half of a surrogate pair). */
function storable(text: string): boolean {
  return !MAYBE_UNSTORABLE.test(text) || cleanText(text) === text
}

/**
 * Why a record cannot even be read (too deep, or a text PostgreSQL refuses in a value or key), or
 * null. Walked with a stack of its own, never recursively, before zod or the content digest touch
 * it: both recurse, and a record thousands of levels deep would overflow the call stack.
 */
export function recordProblem(record: unknown): string | null {
  // Two plain stacks rather than one of small objects: a month may hold 700,000 entries.
  const values: unknown[] = [record]
  const depths: number[] = [0]
  while (values.length) {
    const value = values.pop()
    const depth = depths.pop()!
    if (typeof value === 'string') {
      if (!storable(value)) return `Un texto ${INVALID_CHARACTER}.`
      continue
    }
    if (typeof value !== 'object' || value === null) continue
    if (depth + 1 > MAX_RECORD_DEPTH) {
      return `Tiene más de ${MAX_RECORD_DEPTH} niveles de anidación: no es el formato de la tienda original.`
    }
    if (Array.isArray(value)) {
      for (const item of value as unknown[]) {
        values.push(item)
        depths.push(depth + 1)
      }
      continue
    }
    const object = value as Record<string, unknown>
    for (const key of Object.keys(object)) {
      if (!storable(key)) return `Una clave ${INVALID_CHARACTER}.`
      values.push(object[key])
      depths.push(depth + 1)
    }
  }
  return null
}

/** A text of the export quoted in a reason: short, and escaped so it cannot pass for our words. */
export function quoted(text: string, max = 40): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text)
}

const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, 'no es un número')
    .transform(Number),
])
const pesos = numeric.pipe(
  z
    .number()
    .finite()
    .min(0, 'no puede ser negativo')
    .max(MAX_PRICE_PESOS, `es mayor que $ ${MAX_PRICE_PESOS.toLocaleString('es-CO')}`),
)
const units = numeric.pipe(
  z
    .number()
    .int('debe ser un número entero')
    .min(0, 'no puede ser negativo')
    .max(MAX_UNITS, 'es demasiado grande'),
)
const text = z.union([z.string(), z.number()]).transform(String)
const optionalText = text.nullish().transform((value) => value?.trim() || null)
const id = (missing: string) =>
  z.string().trim().min(1, missing).max(MAX_ID_LENGTH, `tiene más de ${MAX_ID_LENGTH} caracteres`)

/** `schema`'s result for `value`, or its issues added to `ctx` (and zod's NEVER). */
function forward<Out>(schema: z.ZodType<Out, unknown>, value: unknown, ctx: z.RefinementCtx): Out {
  const parsed = parseSource(schema, value)
  if (parsed.success) return parsed.data
  for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: value } as never)
  return z.NEVER
}

/** A form's own schema run on a value read from the export: the form's result, or its issues. */
function through<Out>(schema: z.ZodType<Out, unknown>) {
  // `any` in: it follows a schema of ours whose output the form's own parse checks again.
  return z.any().transform((value: unknown, ctx): Out => forward(schema, value, ctx))
}

/**
 * A text field a form of Vitrina requires but the original may have left empty: empty stays empty,
 * anything else must pass the form's schema, whose result is kept.
 */
function whenGiven(schema: z.ZodType<unknown, unknown>) {
  return z.string().transform((value, ctx) => (value.trim() ? (forward(schema, value, ctx) as string) : ''))
}

/** Only the length a form's schema allows, for a text whose format that form does not judge here. */
function lengthOf(schema: z.ZodType<unknown, unknown>) {
  return z.string().superRefine((value, ctx) => {
    const parsed = parseSource(schema, value)
    for (const issue of parsed.error?.issues ?? []) {
      if (issue.code === 'too_big') ctx.issues.push({ ...issue, input: value } as never)
    }
  })
}

const sku = z.string().trim().min(1, 'falta el SKU').pipe(through(EntryFormSchema.shape.sku))

/** A date as the original wrote it: milliseconds, an ISO text or a Firestore timestamp. */
const moment = z
  .union([
    z.number(),
    z.string(),
    z.object({ seconds: z.number(), nanoseconds: z.number().optional() }),
    z.object({ _seconds: z.number(), _nanoseconds: z.number().optional() }),
  ])
  .transform((value) =>
    typeof value === 'number'
      ? new Date(value)
      : typeof value === 'string'
        ? new Date(value)
        : new Date(('seconds' in value ? value.seconds : value._seconds) * 1000),
  )
  .refine((date) => {
    const year = date.getUTCFullYear()
    return year >= FIRST_YEAR && year <= LAST_YEAR
  }, `no es una fecha válida entre ${FIRST_YEAR} y ${LAST_YEAR}`)

export const SourceCategorySchema = z.object({
  id: id('falta el id'),
  nombre: CategoryNameSchema,
  createdAt: moment.optional(),
})

const imageUrl = z.string().pipe(lengthOf(ProductFieldsSchema.shape.purchaseLink))

export const SourceProductSchema = z.object({
  sku,
  name: z.string().trim().min(1, 'falta el nombre').pipe(through(ProductFieldsSchema.shape.name)),
  description: z
    .string()
    .nullish()
    .transform((value) => value ?? '')
    .pipe(whenGiven(ProductFieldsSchema.shape.description)),
  cost: pesos.nullish().transform((value) => value ?? 0),
  purchaseLink: optionalText
    .transform((value) => value ?? '')
    .pipe(whenGiven(ProductFieldsSchema.shape.purchaseLink))
    .transform((value) => value || null),
  supplierInfo: optionalText
    .transform((value) => value ?? '')
    .pipe(whenGiven(ProductFieldsSchema.shape.supplierInfo))
    .transform((value) => value || null),
  priceLevels: z.object({
    level1: pesos,
    level2: pesos.nullish(),
    level3: pesos.nullish(),
    level4: pesos.nullish(),
    level5: pesos.nullish(),
  }),
  // The form's list rules (at most so many, no repeats) when there is a list: the original allowed
  // a product without categories, and so does the import.
  categorias: z
    .array(z.string())
    .nullish()
    .transform((ids, ctx): string[] => {
      const given = [...new Set((ids ?? []).map((value) => value.trim()).filter(Boolean))]
      if (!given.length) return []
      const long = given.findIndex((value) => value.length > MAX_ID_LENGTH)
      if (long >= 0) {
        ctx.issues.push({
          code: 'custom',
          input: given[long],
          path: [long],
          message: `tiene más de ${MAX_ID_LENGTH} caracteres`,
        })
        return z.NEVER
      }
      return forward(ProductFieldsSchema.shape.categoryIds, given, ctx)
    }),
  imageUrls: z
    .array(imageUrl)
    .nullish()
    .transform((value) => value ?? []),
  mainImageUrl: imageUrl.nullish(),
  stock: units.nullish().transform((value) => value ?? 0),
  salidas: units.nullish(),
  entradas: units.nullish(),
  createdAt: moment.optional(),
  showProduct: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
  showProductDetal: z
    .boolean()
    .nullish()
    .transform((value) => value ?? true),
  descuento: numeric
    .pipe(through(ProductFieldsSchema.shape.discountPercent))
    .nullish()
    .transform((value) => value ?? 0),
  ubicaciones: z
    .array(z.object({ ubicacion: z.string(), stock: units }))
    .nullish()
    .transform((value) => value ?? []),
})
export type SourceProduct = z.infer<typeof SourceProductSchema>

/** What the entry and exit forms take: a typed quantity is text there, hence `String`. */
const movementQuantity = numeric.transform(String).pipe(through(EntryFormSchema.shape.quantity))
const movementText = (field: typeof EntryFormSchema.shape.receipt) =>
  text
    .nullish()
    .transform((value) => value ?? '')
    .pipe(through(field))

export const SourceMovementSchema = z.object({
  sku: z.string().optional(),
  cantidad: movementQuantity,
  precioUnitario: pesos,
  total: numeric.nullish(),
  tipo: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['entrada', 'salida'], 'debe ser "Entrada" o "Salida"')),
  recibo: movementText(EntryFormSchema.shape.receipt),
  createdAt: moment,
  nota: movementText(EntryFormSchema.shape.note),
})
export type SourceMovement = z.infer<typeof SourceMovementSchema>

/** Trimmed, on one line and cleaned, as the checkout keeps it, within the checkout's bound. */
const customerText = (max: number) =>
  text
    .nullish()
    .transform((value) => normalizeCustomerText(value ?? ''))
    .pipe(z.string().max(max))

const L = CUSTOMER_FIELD_LIMITS
export const SourceOrderSchema = z.object({
  status: z.string().trim(),
  enviado: z.union([z.string(), z.boolean()]).nullish(),
  customer_details: z.object({
    name: customerText(L.name),
    last_name: customerText(L.last_name),
    identification_number: customerText(L.identification_number),
    phone: customerText(L.phone),
    email: customerText(L.email),
    address: customerText(L.address),
    city: customerText(L.city),
    department: customerText(L.department),
    payment_method: z.string().trim().nullish(),
  }),
  items: z
    .array(
      z.object({
        id: sku,
        // The product's name as it was: the product form's bound on names.
        title: text
          .nullish()
          .transform((value) => value ?? '')
          .pipe(whenGiven(ProductFieldsSchema.shape.name)),
        quantity: units.pipe(z.number().min(1, 'debe ser al menos 1')),
        unit_price: pesos,
      }),
    )
    .min(1, 'no tiene artículos'),
  total: pesos,
  shipping_cost: pesos.nullish().transform((value) => value ?? 0),
  createdAt: moment.optional(),
})
export type SourceOrder = z.infer<typeof SourceOrderSchema>

/** One element of a month of clicks: read by hand when it is plainly right (a month may hold 700,000). */
export const SourceClickSchema = z.object({ click_count: units })
export const SourcePageViewSchema = z.object({
  visits: units.nullish().transform((value) => value ?? 0),
  totalTime: numeric
    .pipe(
      z
        .number()
        .finite()
        .min(0, 'no puede ser negativo')
        // The column is a bigint read back as a JavaScript number: past this it loses seconds.
        .max(Number.MAX_SAFE_INTEGER, 'es demasiado grande'),
    )
    .nullish(),
})

/** A plain count as the original wrote it, without zod (the common case, hundreds of thousands of times). */
export function plainCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_UNITS
    ? value
    : null
}

/** Why a click element or page name is not one the analytics module keeps, or null. */
export function analyticsNameProblem(name: string): string | null {
  if (!name.trim()) return 'el nombre está vacío'
  if (name.length > MAX_NAME_LENGTH) return `el nombre tiene más de ${MAX_NAME_LENGTH} caracteres`
  // Control characters as the analytics beacons refuse them. Their list of allowed signs is not
  // applied: the original recorded page titles, product names with any sign.
  if (hasControlCharacters(name)) return ANALYTICS_MESSAGES.controlCharacters
  return null
}

/** Zod's words for an issue whose schema gave none of its own, in Spanish. */
function spanishIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'falta' : 'no tiene el tipo esperado'
    case 'too_big':
      return `es mayor que ${String(issue.maximum)}`
    case 'too_small':
      return `es menor que ${String(issue.minimum)}`
    case 'invalid_format':
    case 'invalid_union':
      return 'no tiene un formato válido'
    case 'invalid_value':
      return 'no es uno de los valores aceptados'
    default:
      return 'no es válido'
  }
}

/** `schema.safeParse` with Spanish words wherever the schema has none. */
export function parseSource<T extends z.ZodType>(schema: T, value: unknown) {
  return schema.safeParse(value, { error: spanishIssue })
}

const PLAIN_FIELD = /^[\w]{1,40}$/

/**
 * A zod failure as one Spanish line: where in the record (after `within`, the record's own name
 * for a month's entries), and what is wrong there (up to 3 issues).
 */
export function reasonOf(error: z.ZodError, within?: string): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map((part) =>
        typeof part === 'string' && !PLAIN_FIELD.test(part) ? quoted(part) : String(part),
      )
      if (within !== undefined) path.unshift(quoted(within))
      const where = path.length ? `${path.join('.')}: ` : ''
      let message = issue.message
      if (issue.code === 'invalid_union') {
        message = 'no tiene un formato válido'
      } else if (issue.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array')) {
        // The limit itself, whatever the form says: the owner fixes the export by it.
        message = `tiene más de ${String(issue.maximum)} ${issue.origin === 'string' ? 'caracteres' : 'elementos'}`
      }
      return `${where}${message}`
    })
    .join('; ')
}
