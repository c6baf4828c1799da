import { asc, ilike, or, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { successAnswer } from '#app/utils/action-answer.ts'
import { failureOf, refusedAnswer } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import type { FailureWords } from '#app/utils/refusal.ts'
import { cleanText, normalizeSearchText } from '#app/utils/text.ts'
import { kardexProduct, locationsOf, type KardexProduct } from './kardex.server.ts'
import { recordEntry, recordExit, StockRefused, type MovementResult } from './movement.server.ts'
import {
  ENTRY_FAILURE,
  EXIT_FAILURE,
  parseEntryForm,
  parseExitForm,
  STOCK_FORM_MESSAGES,
  type EntryForm,
  type ExitForm,
  type StockFieldErrors,
  type StockFormField,
  type StockFormParse,
} from './validators.ts'

/** How many products the entry and exit pickers offer for one search. */
export const PICKER_LIMIT = 20

export type PickerOption = { sku: string; name: string; stock: number }

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * Products whose name (any case, accents ignored) or SKU contains the search text, for the entry
 * and exit forms' product picker; an exact SKU comes first, then by name.
 */
export async function searchStockProducts(db: DbOrTx, query: string): Promise<PickerOption[]> {
  const text = cleanText(query).trim().slice(0, 60)
  if (!text) return []
  const upper = text.toUpperCase()
  return db
    .select({ sku: products.sku, name: products.name, stock: products.stock })
    .from(products)
    .where(
      or(
        ilike(products.searchName, likePattern(normalizeSearchText(text))),
        ilike(products.sku, likePattern(text)),
      ),
    )
    .orderBy(sql`${products.sku} = ${upper} desc`, asc(products.searchName), asc(products.sku))
    .limit(PICKER_LIMIT)
}

/** The chosen product of an entry or exit form: its stock, reservation, cost and locations. */
export type StockFormProduct = KardexProduct & {
  locations: { code: string; stock: number }[]
}

export async function stockFormProduct(db: DbOrTx, sku: string): Promise<StockFormProduct | null> {
  const product = await kardexProduct(db, sku.trim())
  if (!product) return null
  return {
    ...product,
    locations: await locationsOf(db, product.sku),
  }
}

/** What the entry and exit pages load: the chosen product (`?sku=`) and the picker's results (`?q=`). */
export type StockFormPage = {
  product: StockFormProduct | null
  /** A `?sku=` that names no product. */
  unknownSku: string | null
  query: string
  options: PickerOption[]
}

export async function stockFormPage(db: DbOrTx, params: URLSearchParams): Promise<StockFormPage> {
  const sku = params.get('sku')?.trim().slice(0, 60) ?? ''
  const query = params.get('q')?.trim().slice(0, 60) ?? ''
  const product = sku ? await stockFormProduct(db, sku) : null
  return {
    product,
    unknownSku: sku && !product ? sku : null,
    query,
    options: query ? await searchStockProducts(db, query) : [],
  }
}

/** The entry form, parsed, as a movement by the signed-in admin `by`. */
export function registerEntry(db: Db, jobs: JobQueue, form: EntryForm, by: string): Promise<MovementResult> {
  return recordEntry(db, jobs, form, by)
}

/**
 * The exit form, parsed, as a movement by `by`. Without "Editar Precio" the unit price is the
 * product's average cost (spec §5: the read-only price is filled from it), read under the
 * movement's lock rather than trusted from the page, which may be older than the last movement.
 */
export function registerExit(db: Db, jobs: JobQueue, form: ExitForm, by: string): Promise<MovementResult> {
  const { editPrice, unitPrice, ...rest } = form
  const price = editPrice && unitPrice !== undefined ? unitPrice : 'average-cost'
  return recordExit(db, jobs, { ...rest, unitPrice: price }, by)
}

/** The form field a refused movement is about, to show its message beside it. */
function stockRefusalField(thrown: unknown): StockFormField | undefined {
  return thrown instanceof StockRefused ? thrown.field : undefined
}

/** Spec §8's words for each form's outcome. */
const STOCK_FORM_OUTCOMES = {
  entry: { saved: STOCK_FORM_MESSAGES.entrySaved, words: ENTRY_FAILURE },
  exit: { saved: STOCK_FORM_MESSAGES.exitSaved, words: EXIT_FAILURE },
} satisfies Record<string, { saved: string; words: FailureWords }>

/**
 * The entry or exit form's post, answered: a registered movement says so; a refused one (the
 * form's checks, or the movement's own rules) keeps what was typed and says each message beside its
 * field, with spec §5's or §8's text as the form's message.
 */
export async function answerStockForm(
  kind: 'entry' | 'exit',
  { db, jobs, by }: { db: Db; jobs: JobQueue; by: string },
  request: Request,
) {
  const form = await requireFormData(request)
  const outcome = STOCK_FORM_OUTCOMES[kind]
  return kind === 'entry'
    ? answerMovement(parseEntryForm(form), (entry) => registerEntry(db, jobs, entry, by), outcome, request)
    : answerMovement(parseExitForm(form), (exit) => registerExit(db, jobs, exit, by), outcome, request)
}

async function answerMovement<Form>(
  parsed: StockFormParse<Form>,
  register: (form: Form) => Promise<MovementResult>,
  { saved, words }: { saved: string; words: FailureWords },
  request: Request,
) {
  if (!parsed.success) {
    const { message, fieldErrors, values } = parsed
    return refusedAnswer(message, 400, { fieldErrors, values })
  }
  try {
    await register(parsed.data)
    return successAnswer(saved)
  } catch (thrown) {
    const { message, status } = failureOf(thrown, request, words)
    const field = stockRefusalField(thrown)
    const fieldErrors: StockFieldErrors = field ? { [field]: message } : {}
    return refusedAnswer(message, status, { fieldErrors, values: parsed.values })
  }
}
