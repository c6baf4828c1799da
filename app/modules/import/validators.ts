import { z } from 'zod'

/**
 * The original shop's documents (spec §7) as an export holds them: one JSON object whose keys are
 * document paths and whose values are the documents' fields, e.g.
 * `{ "productos/productos_bloque_1": { "productos": [...] }, "productos/categorias": { "categorias":
 * [...] }, "movimientos/ABC-GEN-1A2B3C4D": { "movimientos": [...] }, "pedidos": { "<id>": {...} },
 * "clickEvents/2026-01": { "<elemento>": { "click_count": 3 } }, "pageViews/2026-01": { "<página>":
 * { "visits": 2, "totalTime": 40 } } }`. The orders may also come one per key (`"pedidos/<id>"`).
 * Money is pesos there (centavos here); numbers typed into the original's forms may be strings.
 */

const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, 'no es un número')
    .transform(Number),
])
const pesos = numeric.pipe(
  z.number().finite().min(0, 'no puede ser negativo').max(20_000_000, 'es mayor que $ 20.000.000'),
)
const units = numeric.pipe(
  z
    .number()
    .int('debe ser un número entero')
    .min(0, 'no puede ser negativo')
    .max(100_000_000, 'es demasiado grande'),
)
const text = z.union([z.string(), z.number()]).transform(String)
const optionalText = text.nullish().transform((value) => value?.trim() || null)

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
  .refine((date) => !Number.isNaN(date.getTime()), 'no es una fecha válida')

export const SourceCategorySchema = z.object({
  id: z.string().trim().min(1, 'falta el id'),
  nombre: z.string().trim().min(1, 'El nombre de la categoría es obligatorio.'),
  createdAt: moment.optional(),
})

export const SourceProductSchema = z.object({
  sku: z.string().trim().min(1, 'falta el SKU'),
  name: z.string().trim().min(1, 'falta el nombre'),
  description: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  cost: pesos.nullish().transform((value) => value ?? 0),
  purchaseLink: optionalText,
  supplierInfo: optionalText,
  priceLevels: z.object({
    level1: pesos,
    level2: pesos.nullish(),
    level3: pesos.nullish(),
    level4: pesos.nullish(),
    level5: pesos.nullish(),
  }),
  categorias: z
    .array(z.string())
    .nullish()
    .transform((value) => value ?? []),
  imageUrls: z
    .array(z.string())
    .nullish()
    .transform((value) => value ?? []),
  mainImageUrl: z.string().nullish(),
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
    .pipe(
      z
        .number()
        .int('debe ser un número entero')
        .min(0, 'no puede ser negativo')
        .max(100, 'es mayor que 100'),
    )
    .nullish()
    .transform((value) => value ?? 0),
  ubicaciones: z
    .array(z.object({ ubicacion: z.string(), stock: units }))
    .nullish()
    .transform((value) => value ?? []),
})
export type SourceProduct = z.infer<typeof SourceProductSchema>

export const SourceMovementSchema = z.object({
  sku: z.string().optional(),
  cantidad: units.pipe(z.number().min(1, 'debe ser al menos 1')),
  precioUnitario: pesos,
  total: numeric.nullish(),
  tipo: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['entrada', 'salida'], 'debe ser "Entrada" o "Salida"')),
  recibo: text.nullish().transform((value) => value ?? ''),
  createdAt: moment,
  nota: text.nullish().transform((value) => value ?? ''),
})
export type SourceMovement = z.infer<typeof SourceMovementSchema>

const customerText = text.nullish().transform((value) => value?.trim() ?? '')

export const SourceOrderSchema = z.object({
  status: z.string().trim(),
  enviado: z.union([z.string(), z.boolean()]).nullish(),
  customer_details: z.object({
    name: customerText,
    last_name: customerText,
    identification_number: customerText,
    phone: customerText,
    email: customerText,
    address: customerText,
    city: customerText,
    department: customerText,
    payment_method: z.string().trim().nullish(),
  }),
  items: z
    .array(
      z.object({
        id: z.string().trim().min(1, 'falta el SKU'),
        title: text.nullish().transform((value) => value ?? ''),
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

export const SourceClicksSchema = z.record(z.string().min(1), z.object({ click_count: units }))
export const SourcePageViewsSchema = z.record(
  z.string().min(1),
  z.object({
    visits: units.nullish().transform((value) => value ?? 0),
    totalTime: numeric.pipe(z.number().finite().min(0, 'no puede ser negativo')).nullish(),
  }),
)

/** A zod failure as one Spanish line: where in the record, and what is wrong there. */
export function reasonOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const where = issue.path.length ? `${issue.path.join('.')}: ` : ''
      const message =
        issue.code === 'invalid_type'
          ? issue.input === undefined
            ? 'falta'
            : 'no tiene el tipo esperado'
          : issue.code === 'invalid_union'
            ? 'no tiene un formato válido'
            : issue.message
      return `${where}${message}`
    })
    .join('; ')
}
