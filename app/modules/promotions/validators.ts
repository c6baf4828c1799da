import { z } from 'zod'
import { BOGOTA_OFFSET, bogotaStamp } from '#app/utils/bogota-days.ts'
import { formatCOP } from '#app/utils/money.ts'
import { MAX_TYPED_PESOS, parseTypedPesos, typedPesosText } from '#app/utils/pesos-input.ts'
import { CODE_MAX_LENGTH, CODE_PATTERN } from './messages.ts'
import {
  normalizeCode,
  PROMOTION_BENEFITS,
  PROMOTION_TARGETS,
  type PromotionBenefit,
  type PromotionTarget,
} from './rules.ts'

/**
 * The "Descuentos y Promociones" form (/admin/descuentos/nueva and /editar/{id}): what the owner
 * types, checked and turned into a promotion's columns (money in centavos, dates as instants). Shared
 * by the page and the server, so this file imports nothing server-only. Whether the products,
 * categories and code exist or are free is checked by the server (admin-promotions.server.ts).
 */

export const PROMOTION_KINDS = ['codigo', 'automatica'] as const
export type PromotionKind = (typeof PROMOTION_KINDS)[number]

export const NAME_MAX_LENGTH = 80
/** "Lleve N": from 2 to this many units. */
export const MAX_BUY_QUANTITY = 20
/** Products typed by SKU, and categories chosen, at most. */
export const MAX_PROMOTION_SKUS = 200
export const MAX_PROMOTION_CATEGORIES = 200
/** "Usos en total" and "Usos por cliente": whole numbers up to this. */
export const MAX_PROMOTION_USES = 1_000_000

/** "Pausada" while switched off; otherwise by its dates and uses. */
export const PROMOTION_STATES = ['programada', 'activa', 'agotada', 'vencida', 'pausada'] as const
export type PromotionState = (typeof PROMOTION_STATES)[number]

export const PROMOTION_STATE_LABELS: Record<PromotionState, string> = {
  programada: 'Programada',
  activa: 'Activa',
  agotada: 'Agotada',
  vencida: 'Vencida',
  pausada: 'Pausada',
}

export const PROMOTION_KIND_LABELS: Record<PromotionKind, string> = {
  codigo: 'Código de descuento (el cliente lo escribe)',
  automatica: 'Promoción automática (sin código)',
}

export const PROMOTION_BENEFIT_LABELS: Record<PromotionBenefit, string> = {
  percent: 'Porcentaje de descuento',
  fixed: 'Valor fijo en pesos',
  buy_x_pay_y: 'Lleve N, pague M (solo automática)',
  set_discount: 'Descuento programado de productos (solo automática)',
}

export const PROMOTION_TARGET_LABELS: Record<PromotionTarget, string> = {
  order: 'Todo el pedido',
  products: 'Categorías o productos elegidos',
  shipping: 'El envío',
}

export const PROMOTION_LABELS = {
  name: 'Nombre',
  kind: 'Tipo',
  code: 'Código',
  benefit: 'Qué da',
  target: 'Sobre qué',
  percent: 'Porcentaje (%)',
  amount: 'Valor del descuento (pesos)',
  buyQuantity: 'Lleve (N)',
  payQuantity: 'Pague (M)',
  productSkus: 'Productos (SKU)',
  categoryIds: 'Categorías',
  minSubtotal: 'Compra mínima (pesos)',
  startsAt: 'Empieza',
  endsAt: 'Termina',
  maxUses: 'Usos en total',
  maxUsesPerCustomer: 'Usos por cliente',
  combinable: 'Se suma a otras promociones combinables',
  active: 'Activa',
} as const

export const PROMOTION_MESSAGES = {
  created: 'Promoción creada.',
  updated: 'Promoción actualizada.',
  duplicated: (name: string) => `Se creó «${name}», pausada: revísala y reanúdala cuando quieras.`,
  paused: (name: string) => `Promoción «${name}» pausada.`,
  resumed: (name: string) => `Promoción «${name}» reanudada.`,
  ended: (name: string) => `Promoción «${name}» terminada.`,
  alreadyEnded: (name: string) =>
    `La promoción «${name}» ya terminó. Para volver a usarla, cambia su fecha de fin o duplícala.`,
  notFound: 'Esa promoción ya no existe. Recarga la página.',
  empty: 'Aún no hay descuentos ni promociones. Crea el primero con «Nueva promoción».',
  invalid: 'Revisa los campos marcados; no se guardó la promoción.',
  badRequest: 'La solicitud no es válida. Recarga la página e inténtalo de nuevo.',
  unexpected: 'Error: no se pudo guardar la promoción, intenta de nuevo.',
  nameRequired: 'Escribe el nombre de la promoción.',
  nameTooLong: `El nombre puede tener hasta ${NAME_MAX_LENGTH} caracteres.`,
  kind: 'Elige si es un código de descuento o una promoción automática.',
  codeRequired: 'Escribe el código que usará el cliente (por ejemplo BIENVENIDA10).',
  codeCharacters:
    'El código solo puede tener letras sin tilde, números, guion (-) y guion bajo (_), por ejemplo VERANO-10.',
  codeTooLong: `El código puede tener hasta ${CODE_MAX_LENGTH} caracteres.`,
  codeTaken: (code: string) => `Ya existe una promoción con el código ${code}. Elige otro.`,
  benefit: 'Elige qué da la promoción.',
  target: 'Elige sobre qué se aplica la promoción.',
  buyPayNeedsAutomatic: '«Lleve N, pague M» solo puede ser una promoción automática (sin código).',
  setDiscountNeedsAutomatic: 'El descuento programado solo puede ser una promoción automática (sin código).',
  buyPayTarget: '«Lleve N, pague M» se aplica a todo el pedido o a categorías o productos, no al envío.',
  setDiscountTarget: 'El descuento programado se aplica solo a categorías o productos elegidos.',
  percent: 'El porcentaje debe ser un número entero entre 1 y 100.',
  amountRequired: 'Escribe el valor del descuento en pesos (por ejemplo 15.000).',
  pesosFormat: (label: string) =>
    `${label}: escribe pesos enteros, sin centavos ni letras (por ejemplo 15000 o 15.000).`,
  pesosTooLarge: (label: string) => `${label}: no puede superar $ ${typedPesosText(MAX_TYPED_PESOS * 100)}.`,
  amountPositive: 'El valor del descuento debe ser mayor que $ 0.',
  buyQuantity: `En «lleve N», N debe ser un número entero entre 2 y ${MAX_BUY_QUANTITY}.`,
  payQuantity: 'En «pague M», M debe ser un número entero desde 1 y menor que las unidades que se llevan.',
  productsRequired: 'Elige al menos una categoría o escribe al menos un SKU.',
  tooManySkus: `Puedes escribir hasta ${MAX_PROMOTION_SKUS} SKU.`,
  tooManyCategories: `Puedes elegir hasta ${MAX_PROMOTION_CATEGORIES} categorías.`,
  skuCharacters: 'Escribe los SKU separados por comas o uno por línea (por ejemplo COL-ACE-0001).',
  unknownSkus: (skus: string[]) =>
    skus.length === 1
      ? `No existe ningún producto con el SKU ${skus[0]}.`
      : `No existen productos con los SKU ${skus.slice(0, -1).join(', ')} y ${skus.at(-1)}.`,
  unknownCategories: 'Una de las categorías elegidas ya no existe. Recarga la página y elígelas de nuevo.',
  date: (label: string) => `${label}: elige una fecha y una hora válidas.`,
  endBeforeStart: 'La fecha de fin debe ser posterior a la de inicio.',
  uses: (label: string) =>
    `${label}: escribe un número entero desde 1 (hasta ${MAX_PROMOTION_USES.toLocaleString('es-CO')}), o déjalo vacío para no tener límite.`,
} as const

/** The form's fields as typed (a missing field reads as empty; checkboxes as booleans). */
export type PromotionFormValues = {
  name: string
  kind: string
  code: string
  benefit: string
  target: string
  percent: string
  amount: string
  buyQuantity: string
  payQuantity: string
  productSkus: string
  categoryIds: string[]
  minSubtotal: string
  startsAt: string
  endsAt: string
  maxUses: string
  maxUsesPerCustomer: string
  combinable: boolean
  active: boolean
}

export type PromotionField = keyof PromotionFormValues
export type PromotionFieldErrors = Partial<Record<PromotionField, string>>

/** A checked form: the promotion's columns, money in centavos. */
export type PromotionInput = {
  name: string
  code: string | null
  benefit: PromotionBenefit
  target: PromotionTarget
  percent: number
  amount: number
  buyQuantity: number
  payQuantity: number
  productSkus: string[]
  categoryIds: string[]
  minSubtotal: number
  startsAt: Date | null
  endsAt: Date | null
  maxUses: number | null
  maxUsesPerCustomer: number | null
  combinable: boolean
  active: boolean
}

const TEXT_FIELDS = [
  'name',
  'kind',
  'code',
  'benefit',
  'target',
  'percent',
  'amount',
  'buyQuantity',
  'payQuantity',
  'productSkus',
  'minSubtotal',
  'startsAt',
  'endsAt',
  'maxUses',
  'maxUsesPerCustomer',
] as const satisfies readonly PromotionField[]

/** The typed values of a posted promotion form (what a refused form shows again). */
export function promotionFormValues(form: FormData): PromotionFormValues {
  const text = (name: string) => {
    const value = form.get(name)
    // Far longer than any field takes: kept short so a refusal never echoes a huge post.
    return typeof value === 'string' ? value.slice(0, 4000) : ''
  }
  return {
    ...(Object.fromEntries(TEXT_FIELDS.map((name) => [name, text(name)])) as Omit<
      PromotionFormValues,
      'categoryIds' | 'combinable' | 'active'
    >),
    categoryIds: form
      .getAll('categoryIds')
      .filter((value): value is string => typeof value === 'string' && value !== '')
      .slice(0, MAX_PROMOTION_CATEGORIES + 1)
      .map((value) => value.slice(0, 200)),
    combinable: form.get('combinable') === 'on',
    active: form.get('active') === 'on',
  }
}

/** An empty form: an active code, 10 % off the whole order, no limits. */
export const NEW_PROMOTION_VALUES: PromotionFormValues = {
  name: '',
  kind: 'codigo',
  code: '',
  benefit: 'percent',
  target: 'order',
  percent: '10',
  amount: '',
  buyQuantity: '3',
  payQuantity: '2',
  productSkus: '',
  categoryIds: [],
  minSubtotal: '',
  startsAt: '',
  endsAt: '',
  maxUses: '',
  maxUsesPerCustomer: '',
  combinable: false,
  active: true,
}

/** What a `datetime-local` field shows for an instant: its Bogotá date and time, "2026-11-23T18:05". */
export function bogotaLocalInput(at: Date | null): string {
  return at ? bogotaStamp(at).replace(' ', 'T') : ''
}

const pesosText = typedPesosText

/** The form's fields as shown for a saved promotion. */
export function promotionAsFormValues(row: PromotionInput): PromotionFormValues {
  return {
    name: row.name,
    kind: row.code === null ? 'automatica' : 'codigo',
    code: row.code ?? '',
    benefit: row.benefit,
    target: row.target,
    percent: row.benefit === 'percent' || row.benefit === 'set_discount' ? String(row.percent) : '',
    amount: row.benefit === 'fixed' ? pesosText(row.amount) : '',
    buyQuantity: row.benefit === 'buy_x_pay_y' ? String(row.buyQuantity) : '',
    payQuantity: row.benefit === 'buy_x_pay_y' ? String(row.payQuantity) : '',
    productSkus: row.productSkus.join(', '),
    categoryIds: [...row.categoryIds],
    minSubtotal: row.minSubtotal > 0 ? pesosText(row.minSubtotal) : '',
    startsAt: bogotaLocalInput(row.startsAt),
    endsAt: bogotaLocalInput(row.endsAt),
    maxUses: row.maxUses === null ? '' : String(row.maxUses),
    maxUsesPerCustomer: row.maxUsesPerCustomer === null ? '' : String(row.maxUsesPerCustomer),
    combinable: row.combinable,
    active: row.active,
  }
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2})?$/

/** A `datetime-local` value read as Bogotá time (UTC−5), or null when it is no real date and time. */
export function fromBogotaLocal(text: string): Date | null {
  const match = LOCAL_DATE_TIME.exec(text.trim())
  if (!match) return null
  const year = Number(match[1])
  if (year < 2000 || year > 2100) return null
  const at = new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:00${BOGOTA_OFFSET}`)
  // "2026-02-30" rolls over to March: refused rather than moved.
  if (Number.isNaN(at.getTime()) || bogotaLocalInput(at) !== text.trim().slice(0, 16)) return null
  return at
}

/** Whole numbers typed with or without thousands dots ("1.000"). */
const wholeNumber = (text: string): number | null => {
  const clean = text.replace(/\s+/g, '')
  if (!/^(\d{1,9}|\d{1,3}(\.\d{3}){1,2})$/.test(clean)) return null
  return Number(clean.replaceAll('.', ''))
}

const optionalUses = (label: string) =>
  z.string().transform((text, ctx) => {
    if (text.trim() === '') return null
    const uses = wholeNumber(text)
    if (uses === null || uses < 1 || uses > MAX_PROMOTION_USES) {
      ctx.addIssue({ code: 'custom', message: PROMOTION_MESSAGES.uses(label) })
      return z.NEVER
    }
    return uses
  })

const optionalDate = (label: string) =>
  z.string().transform((text, ctx) => {
    if (text.trim() === '') return null
    const at = fromBogotaLocal(text)
    if (!at) {
      ctx.addIssue({ code: 'custom', message: PROMOTION_MESSAGES.date(label) })
      return z.NEVER
    }
    return at
  })

/** The SKUs typed, separated by commas, semicolons, spaces or lines; upper case, each once. */
export function skusOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((sku) => sku.trim().toUpperCase())
        .filter(Boolean),
    ),
  ]
}

function pesosMessage(label: string, reason: 'blank' | 'format' | 'tooLarge'): string {
  if (reason === 'blank') return PROMOTION_MESSAGES.amountRequired
  if (reason === 'format') return PROMOTION_MESSAGES.pesosFormat(label)
  return PROMOTION_MESSAGES.pesosTooLarge(label)
}

const issue = (ctx: z.RefinementCtx, path: PromotionField, message: string) =>
  ctx.addIssue({ code: 'custom', path: [path], message })

/**
 * The whole form: each field on its own, then the combinations (which benefit goes with which
 * kind and target, and the fields each benefit needs). Fields a benefit does not use are ignored,
 * whatever they hold: without scripts the page shows them all.
 */
export const PromotionFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { message: PROMOTION_MESSAGES.nameRequired })
      .max(NAME_MAX_LENGTH, { message: PROMOTION_MESSAGES.nameTooLong }),
    kind: z.enum(PROMOTION_KINDS, { message: PROMOTION_MESSAGES.kind }),
    code: z.string(),
    benefit: z.enum(PROMOTION_BENEFITS, { message: PROMOTION_MESSAGES.benefit }),
    target: z.enum(PROMOTION_TARGETS, { message: PROMOTION_MESSAGES.target }),
    percent: z.string(),
    amount: z.string(),
    buyQuantity: z.string(),
    payQuantity: z.string(),
    productSkus: z.string(),
    categoryIds: z.array(z.string()),
    minSubtotal: z.string().transform((text, ctx) => {
      if (text.trim() === '') return 0
      const parsed = parseTypedPesos(text)
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: pesosMessage(PROMOTION_LABELS.minSubtotal, parsed.reason) })
        return z.NEVER
      }
      return parsed.centavos
    }),
    startsAt: optionalDate(PROMOTION_LABELS.startsAt),
    endsAt: optionalDate(PROMOTION_LABELS.endsAt),
    maxUses: optionalUses(PROMOTION_LABELS.maxUses),
    maxUsesPerCustomer: optionalUses(PROMOTION_LABELS.maxUsesPerCustomer),
    combinable: z.boolean(),
    active: z.boolean(),
  })
  .transform((form, ctx): PromotionInput => {
    const automatic = form.kind === 'automatica'
    let code: string | null = null
    if (!automatic) {
      code = normalizeCode(form.code)
      if (code === '') issue(ctx, 'code', PROMOTION_MESSAGES.codeRequired)
      else if (code.length > CODE_MAX_LENGTH) issue(ctx, 'code', PROMOTION_MESSAGES.codeTooLong)
      else if (!CODE_PATTERN.test(code)) issue(ctx, 'code', PROMOTION_MESSAGES.codeCharacters)
    }
    const { benefit, target } = form
    if (benefit === 'buy_x_pay_y') {
      if (!automatic) issue(ctx, 'benefit', PROMOTION_MESSAGES.buyPayNeedsAutomatic)
      else if (target === 'shipping') issue(ctx, 'target', PROMOTION_MESSAGES.buyPayTarget)
    }
    if (benefit === 'set_discount') {
      if (!automatic) issue(ctx, 'benefit', PROMOTION_MESSAGES.setDiscountNeedsAutomatic)
      else if (target !== 'products') issue(ctx, 'target', PROMOTION_MESSAGES.setDiscountTarget)
    }
    let percent = 0
    if (benefit === 'percent' || benefit === 'set_discount') {
      const typed = form.percent.replace(/[\s%]/g, '')
      percent = /^\d{1,3}$/.test(typed) ? Number(typed) : 0
      if (percent < 1 || percent > 100) issue(ctx, 'percent', PROMOTION_MESSAGES.percent)
    }
    let amount = 0
    if (benefit === 'fixed') {
      const parsed = parseTypedPesos(form.amount)
      if (!parsed.ok) issue(ctx, 'amount', pesosMessage(PROMOTION_LABELS.amount, parsed.reason))
      else if (parsed.centavos <= 0) issue(ctx, 'amount', PROMOTION_MESSAGES.amountPositive)
      else amount = parsed.centavos
    }
    let buyQuantity = 0
    let payQuantity = 0
    if (benefit === 'buy_x_pay_y') {
      const buy = /^\s*\d{1,2}\s*$/.test(form.buyQuantity) ? Number(form.buyQuantity) : 0
      const pay = /^\s*\d{1,2}\s*$/.test(form.payQuantity) ? Number(form.payQuantity) : 0
      if (buy < 2 || buy > MAX_BUY_QUANTITY) issue(ctx, 'buyQuantity', PROMOTION_MESSAGES.buyQuantity)
      else if (pay < 1 || pay >= buy) issue(ctx, 'payQuantity', PROMOTION_MESSAGES.payQuantity)
      else {
        buyQuantity = buy
        payQuantity = pay
      }
    }
    let productSkus: string[] = []
    let categoryIds: string[] = []
    if (target === 'products') {
      productSkus = skusOf(form.productSkus)
      categoryIds = [...new Set(form.categoryIds)]
      if (productSkus.length > MAX_PROMOTION_SKUS) issue(ctx, 'productSkus', PROMOTION_MESSAGES.tooManySkus)
      else if (productSkus.some((sku) => sku.length > 60 || !/^[\p{L}\p{N}._-]+$/u.test(sku)))
        issue(ctx, 'productSkus', PROMOTION_MESSAGES.skuCharacters)
      if (categoryIds.length > MAX_PROMOTION_CATEGORIES)
        issue(ctx, 'categoryIds', PROMOTION_MESSAGES.tooManyCategories)
      if (!productSkus.length && !categoryIds.length)
        issue(ctx, 'productSkus', PROMOTION_MESSAGES.productsRequired)
    }
    if (form.startsAt && form.endsAt && form.endsAt <= form.startsAt)
      issue(ctx, 'endsAt', PROMOTION_MESSAGES.endBeforeStart)
    return {
      name: form.name,
      code,
      benefit,
      target,
      percent,
      amount,
      buyQuantity,
      payQuantity,
      productSkus,
      categoryIds,
      minSubtotal: form.minSubtotal,
      startsAt: form.startsAt,
      endsAt: form.endsAt,
      maxUses: form.maxUses,
      maxUsesPerCustomer: form.maxUsesPerCustomer,
      combinable: form.combinable,
      active: form.active,
    }
  }) satisfies z.ZodType<PromotionInput, PromotionFormValues>

/** The form checked: the promotion's columns, or one message per field (the first for each). */
export function checkPromotionForm(
  values: PromotionFormValues,
): { ok: true; input: PromotionInput } | { ok: false; errors: PromotionFieldErrors } {
  const parsed = PromotionFormSchema.safeParse(values)
  if (parsed.success) return { ok: true, input: parsed.data }
  const errors: PromotionFieldErrors = {}
  for (const found of parsed.error.issues) {
    const field = (found.path[0] ?? 'name') as PromotionField
    errors[field] ??= found.message
  }
  return { ok: false, errors }
}

/** "Collares", "Collares y Aretes", "Collares, Aretes y COL-ACE-0001". */
export function spanishList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? ''
  return `${items.slice(0, -1).join(', ')} y ${items.at(-1)}`
}

/**
 * What a promotion gives, in the owner's words: "10 % en todo el pedido", "$ 15.000,00 en Collares",
 * "Envío gratis", "Lleve 3 pague 2 en Aretes", "Descuento programado 30 % en Collares".
 * `covers` names its categories and products (a `products` target).
 */
export function describePromotion(
  promotion: Pick<
    PromotionInput,
    'benefit' | 'target' | 'percent' | 'amount' | 'buyQuantity' | 'payQuantity'
  >,
  covers: readonly string[],
): string {
  const where =
    promotion.target === 'order'
      ? 'en todo el pedido'
      : promotion.target === 'shipping'
        ? 'en el envío'
        : `en ${spanishList(covers) || 'productos elegidos'}`
  switch (promotion.benefit) {
    case 'percent':
      if (promotion.target === 'shipping' && promotion.percent >= 100) return 'Envío gratis'
      return `${promotion.percent} % ${where}`
    case 'fixed':
      return `${formatCOP(promotion.amount)} ${where}`
    case 'buy_x_pay_y':
      return `Lleve ${promotion.buyQuantity} pague ${promotion.payQuantity} ${where}`
    case 'set_discount':
      return `Descuento programado ${promotion.percent} % ${where}`
  }
}
