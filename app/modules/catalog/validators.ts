import type { FailureWords } from '#app/utils/refusal.ts'
import { PARCEL_BOUNDS } from '#app/utils/parcel-bounds.ts'
import { slugify } from '#app/utils/slug.ts'
import { cleanText } from '#app/utils/text.ts'
import { VAT_RATES } from '#app/utils/vat.ts'
import { z } from 'zod'

/** Texts of spec §5 and §8 for the admin product and category screens, exactly as written there. */
export const PRODUCT_MESSAGES = {
  created: 'Producto creado exitosamente.',
  updated: 'Producto actualizado exitosamente.',
  failure: (message: string) => `Error: ${message}`,
  deleted: 'Producto eliminado correctamente.',
  deleteFailed: 'Hubo un problema al eliminar el producto.',
  deleteConfirm: '¿Estás seguro de que quieres eliminar este producto?',
  notFound: 'Producto no encontrado.',
  required: 'Completa nombre, descripción y al menos una categoría.',
  imagesRequired: 'Debes subir al menos una imagen.',
  imagesRequiredForm: 'Por favor, sube al menos una imagen del producto.',
  mainImageInvalid: 'Selecciona una imagen principal válida.',
  mainImageRequiredForm: 'Por favor, selecciona una imagen principal.',
  mainImageFailed: 'Error al actualizar la imagen principal. Intenta de nuevo.',
  imageDeleteConfirm: '¿Estás seguro de que quieres eliminar esta imagen?',
  imageDeleteMain:
    'no puedes eliminar la imagen principal, primero cámbiala por otra y luego vuelve a intentar.',
  imageDeleteFailed: 'Hubo un problema al eliminar la imagen. Por favor, inténtalo de nuevo.',
  /** Not in the spec: our refusal to erase a product that has stock or order history (ADR 0003). */
  hasHistory:
    'No se puede eliminar un producto con movimientos de inventario o pedidos. Para ocultarlo de la tienda, desactiva Mayor y Detal.',
  unknownCategory: 'Una de las categorías elegidas ya no existe.',
  /** Not in the spec: the IVA select posted something not among its options. */
  vatInvalid: 'Elige el IVA del producto entre las opciones de la lista.',
  /** Not in the spec: a package weight or side ("Empaque para envíos") out of its bounds. */
  packageSize: (label: string, max: number) =>
    `${label} debe ser un número entero entre 1 y ${max.toLocaleString('es-CO')}, o quedar vacío.`,
  /** An edit post without the cost the page was loaded with (a page older than that field). */
  staleForm:
    'Este formulario está desactualizado. Recarga la página y vuelve a guardar; no se guardó ningún cambio.',
  /** The whole post is over the server's 120 MB limit for the back office (answered 413). */
  requestTooLarge:
    'Error: los archivos elegidos suman más de 120 MB. Sube menos archivos a la vez e inténtalo de nuevo.',
  /** The server could not be reached (network down, server restarting). */
  unreachable: 'Error: no se pudo contactar al servidor, intenta de nuevo.',
  /** The server answered something unexpected (a 5xx, a proxy's error page). */
  unexpected: 'Error: no se pudo guardar el producto, intenta de nuevo.',
  /** Media storage refused the files (full disk, bucket unreachable…). */
  storageFailed: 'no se pudieron guardar las imágenes, intenta de nuevo.',
  empty: 'No se encontraron productos.',
  loading: 'Cargando productos...',
} as const

export const CATEGORY_MESSAGES = {
  created: 'Categoría creada con éxito.',
  updated: 'Categoría actualizada con éxito.',
  createFailed: (message: string) => `Error al crear la categoría: ${message}`,
  updateFailed: (message: string) => `Error al actualizar la categoría: ${message}`,
  notFound: 'Categoría no encontrada.',
  nameRequired: 'El nombre de la categoría es obligatorio.',
  empty: 'No hay categorías disponibles.',
  unexpected: 'no se pudo guardar, intenta de nuevo.',
} as const

/** A failed product save reads spec §8's "Error: {message}"; the §5 texts stand alone. */
export const PRODUCT_SAVE_FAILURE: FailureWords = {
  unexpected: 'no se pudo guardar el producto, intenta de nuevo.',
  frame: PRODUCT_MESSAGES.failure,
}

/** A failed category save reads "Error al crear/actualizar la categoría: {message}". */
export const categorySaveFailure = (editing: boolean): FailureWords => ({
  unexpected: CATEGORY_MESSAGES.unexpected,
  frame: editing ? CATEGORY_MESSAGES.updateFailed : CATEGORY_MESSAGES.createFailed,
})

/** Empty form fields arrive as '' (or not at all): both mean "not given". */
const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value

/**
 * The largest price or cost the form takes, in pesos. Money columns are PostgreSQL `integer`
 * centavos (at most 2,147,483,647, i.e. $ 21.474.836,47); 20 million pesos leaves room below that
 * for every derived figure and is far above any accessory's price.
 */
export const MAX_PRICE_PESOS = 20_000_000

/** "El precio nivel 1 no puede ser mayor que $ 20.000.000." (spec §5 style: one plain sentence). */
export const priceTooLargeMessage = (label: string) => `${label} no puede ser mayor que $ 20.000.000.`

/** A peso amount typed in a number input: min 0, at most 2 decimals kept (rounded). */
const pesos = (label: string) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ message: `${label} debe ser un número.` })
      .refine(Number.isFinite, { message: `${label} debe ser un número.` })
      .min(0, { message: `${label} no puede ser negativo.` })
      .max(MAX_PRICE_PESOS, { message: priceTooLargeMessage(label) })
      .optional(),
  )

const optionalText = (max: number, label: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(max, { message: `${label} es demasiado largo.` })
      .optional(),
  )

/** The product's package fields: the column each fills and how its refusal names it. */
export const PACKAGE_FIELDS = [
  { name: 'weightGrams', label: 'El peso (g)', bounds: PARCEL_BOUNDS.weightGrams },
  { name: 'lengthCm', label: 'El largo (cm)', bounds: PARCEL_BOUNDS.centimetres },
  { name: 'widthCm', label: 'El ancho (cm)', bounds: PARCEL_BOUNDS.centimetres },
  { name: 'heightCm', label: 'El alto (cm)', bounds: PARCEL_BOUNDS.centimetres },
] as const

export type PackageFieldName = (typeof PACKAGE_FIELDS)[number]['name']

/**
 * A package weight or side as typed: a whole number within its bounds; '' is null (the shop's
 * default package from "Configuraciones"). A post without the field (a form older than it) leaves it
 * undefined: an edit keeps the saved value, a new product follows the default.
 */
const packageSize = ({ label, bounds }: (typeof PACKAGE_FIELDS)[number]) => {
  const message = PRODUCT_MESSAGES.packageSize(label, bounds.max)
  return z.preprocess(
    (value) => (typeof value === 'string' ? (value.trim() === '' ? null : value.trim()) : value),
    z
      .string({ message })
      .regex(/^\d{1,6}$/, { message })
      .transform(Number)
      .refine((n) => n >= bounds.min && n <= bounds.max, { message })
      .nullable()
      .optional(),
  )
}

const checkbox = z.preprocess((value) => value === 'on' || value === 'true' || value === true, z.boolean())

/**
 * "SEO" of a product or category: the lengths Google shows before cutting a result's title and
 * description (the form's counters), and the longest each field takes.
 */
export const SEO_RECOMMENDED = { title: 60, description: 155 } as const
export const SEO_MAX = { title: 120, description: 320, slug: 120 } as const

export const SEO_MESSAGES = {
  titleTooLong: `El título para buscadores no puede tener más de ${SEO_MAX.title} caracteres.`,
  descriptionTooLong: `La descripción para buscadores no puede tener más de ${SEO_MAX.description} caracteres.`,
  slugTooLong: `La URL no puede tener más de ${SEO_MAX.slug} caracteres.`,
  slugInvalid:
    'La URL debe tener al menos una letra o un número (se escribe en minúsculas, sin tildes y con guiones).',
} as const

/** One line of text as a search result shows it: controls and runs of spaces become one space. */
export function singleLineText(value: string): string {
  return (
    cleanText(value)
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f\s]+/g, ' ')
      .trim()
  )
}

/**
 * A SEO title or description: '' is null (the default from the name and description); a post
 * without the field (a form older than it) leaves it undefined: the saved value stays.
 */
const seoText = (max: number, message: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? singleLineText(value) : value),
    z
      .string({ message })
      .max(max, { message })
      .transform((text) => text || null)
      .optional(),
  )

/**
 * The readable part of the URL, normalised (`slugify`: lower case, no accents, hyphens); '' is null
 * (made from the name when saved); undefined when the post has no such field.
 */
const slugField = z.preprocess(
  (value) => (typeof value === 'string' ? cleanText(value).trim() : value),
  z
    .string({ message: SEO_MESSAGES.slugInvalid })
    .max(SEO_MAX.slug, { message: SEO_MESSAGES.slugTooLong })
    .transform((text, ctx) => {
      if (!text) return null
      const slug = slugify(text)
      if (!slug) ctx.addIssue({ code: 'custom', message: SEO_MESSAGES.slugInvalid })
      return slug
    })
    .optional(),
)

/** The "SEO" fields of the product and category forms. */
export const SeoFieldsSchema = z.object({
  seoTitle: seoText(SEO_MAX.title, SEO_MESSAGES.titleTooLong),
  seoDescription: seoText(SEO_MAX.description, SEO_MESSAGES.descriptionTooLong),
  slug: slugField,
})
export type SeoFields = z.infer<typeof SeoFieldsSchema>

/** The SEO fields of a form post, each undefined when the form has no such field. */
export function seoFieldValues(form: FormData) {
  const value = (name: string) => (form.has(name) ? form.get(name) : undefined)
  return { seoTitle: value('seoTitle'), seoDescription: value('seoDescription'), slug: value('slug') }
}

/**
 * The columns the SEO fields write: only those the post had; an empty slug is made from the name
 * (`slugify`), so a saved row keeps its URL when it is renamed later.
 */
export function seoColumns(fields: SeoFields, name: string) {
  return {
    ...(fields.seoTitle === undefined ? {} : { seoTitle: fields.seoTitle }),
    ...(fields.seoDescription === undefined ? {} : { seoDescription: fields.seoDescription }),
    ...(fields.slug === undefined ? {} : { slug: fields.slug ?? slugify(name) }),
  }
}

/** The product form's fields (files and the main-image choice are checked apart). */
export const ProductFieldsSchema = z.object({
  name: z.string({ message: PRODUCT_MESSAGES.required }).trim().min(1, PRODUCT_MESSAGES.required).max(120, {
    message: 'El nombre es demasiado largo.',
  }),
  description: z
    .string({ message: PRODUCT_MESSAGES.required })
    .trim()
    .min(1, PRODUCT_MESSAGES.required)
    .max(5000, { message: 'La descripción es demasiado larga.' }),
  categoryIds: z
    .array(z.string().trim().min(1, PRODUCT_MESSAGES.required))
    .min(1, PRODUCT_MESSAGES.required)
    .max(20, { message: 'Elige como máximo 20 categorías.' })
    .transform((ids) => [...new Set(ids)]),
  cost: pesos('El costo').transform((v) => v ?? 0),
  level1: pesos('El precio nivel 1').transform((v) => v ?? 0),
  /** Editable; 40 % of level 1 when left empty. */
  level5: pesos('El precio nivel 5'),
  discountPercent: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ message: 'El descuento debe ser un número.' })
      .int({ message: 'El descuento debe ser un número entero.' })
      .min(0, { message: 'El descuento debe estar entre 0 y 100.' })
      .max(100, { message: 'El descuento debe estar entre 0 y 100.' })
      .optional()
      .transform((v) => v ?? 0),
  ),
  purchaseLink: z.preprocess(
    blankToUndefined,
    z
      .url({ message: 'El link de compra debe ser una URL completa (https://…).', protocol: /^https?$/ })
      .max(2000)
      .optional(),
  ),
  supplierInfo: optionalText(2000, 'La información del proveedor'),
  showWholesale: checkbox,
  showRetail: checkbox,
  /** Bien de uso personal: excluded from the right of withdrawal (Ley 1480, art. 47). */
  personalUse: checkbox,
  /**
   * IVA on the product's invoices; '' ("Según la configuración") is null: the shop's default.
   * A post without the field (a form older than it) leaves it undefined: an edit keeps the saved
   * rate, a new product follows the shop's default.
   */
  vat: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
    z.enum(VAT_RATES, { message: PRODUCT_MESSAGES.vatInvalid }).nullable().optional(),
  ),
  /** "Empaque para envíos": null (empty) takes the shop's default package. */
  weightGrams: packageSize(PACKAGE_FIELDS[0]),
  lengthCm: packageSize(PACKAGE_FIELDS[1]),
  widthCm: packageSize(PACKAGE_FIELDS[2]),
  heightCm: packageSize(PACKAGE_FIELDS[3]),
  ...SeoFieldsSchema.shape,
})

export type ProductFields = z.infer<typeof ProductFieldsSchema>

/** Reads the product fields of a form post (categories come as repeated `categoryIds`). */
export function productFieldsFrom(form: FormData) {
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : undefined
  }
  return ProductFieldsSchema.safeParse({
    name: text('name') ?? '',
    description: text('description') ?? '',
    categoryIds: form.getAll('categoryIds').filter((v): v is string => typeof v === 'string' && v !== ''),
    cost: text('cost'),
    level1: text('level1'),
    level5: text('level5'),
    discountPercent: text('discountPercent'),
    purchaseLink: text('purchaseLink'),
    supplierInfo: text('supplierInfo'),
    showWholesale: text('showWholesale'),
    showRetail: text('showRetail'),
    personalUse: text('personalUse'),
    vat: form.has('vat') ? form.get('vat') : undefined,
    ...Object.fromEntries(
      PACKAGE_FIELDS.map(({ name }) => [name, form.has(name) ? form.get(name) : undefined]),
    ),
    ...seoFieldValues(form),
  })
}

/** The first message of a failed parse (the form shows one alert, as the original did). */
export function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Datos no válidos.'
}

export const CategoryNameSchema = z
  .string({ message: CATEGORY_MESSAGES.nameRequired })
  .trim()
  .min(1, CATEGORY_MESSAGES.nameRequired)
  .max(80, { message: 'El nombre de la categoría es demasiado largo.' })

/** Inventory grid filters (spec §2): the four "show …" checkboxes and the SKU search. */
export const InventoryFiltersSchema = z.object({
  q: z.string().trim().max(60).catch(''),
  wholesale: z.boolean().catch(true),
  retail: z.boolean().catch(true),
  noStock: z.boolean().catch(true),
  inactive: z.boolean().catch(true),
})
export type InventoryFilters = z.infer<typeof InventoryFiltersSchema>
export const DEFAULT_INVENTORY_FILTERS: InventoryFilters = {
  q: '',
  wholesale: true,
  retail: true,
  noStock: true,
  inactive: true,
}

/** Filters ↔ query string: `q`, and `mayoristas`/`detal`/`sinStock`/`inactivos` = 1 or 0. */
export const FILTER_PARAMS = {
  wholesale: 'mayoristas',
  retail: 'detal',
  noStock: 'sinStock',
  inactive: 'inactivos',
} as const

export function filtersFromParams(params: URLSearchParams): InventoryFilters {
  const flag = (name: string, fallback: boolean) => {
    const value = params.get(name)
    return value === null ? fallback : value === '1'
  }
  return InventoryFiltersSchema.parse({
    q: params.get('q') ?? '',
    wholesale: flag(FILTER_PARAMS.wholesale, true),
    retail: flag(FILTER_PARAMS.retail, true),
    noStock: flag(FILTER_PARAMS.noStock, true),
    inactive: flag(FILTER_PARAMS.inactive, true),
  })
}

export function paramsFromFilters(filters: InventoryFilters): URLSearchParams {
  const params = new URLSearchParams()
  if (filters.q) params.set('q', filters.q)
  for (const [key, name] of Object.entries(FILTER_PARAMS)) {
    params.set(name, filters[key as keyof typeof FILTER_PARAMS] ? '1' : '0')
  }
  return params
}

export const INVENTORY_PAGE_SIZE = 24

/** Where the grid's filters and search text live between visits (spec §2: local storage). */
export const INVENTORY_STORAGE_KEY = 'vitrina.admin.inventario'
