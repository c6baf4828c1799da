import type { RouterContextProvider } from 'react-router'
import type { Db } from '#app/db/client.server.ts'
import { noteAuditChanges } from '#app/modules/audit/changes.ts'
import { formatCount } from '#app/utils/count.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { kardexProduct } from '#app/modules/inventory/kardex.server.ts'
import { StockRefused, type MovementResult } from '#app/modules/inventory/movement.server.ts'
import type { StockFormLoaderData } from '#app/components/admin/stock-movement-form.tsx'
import { registerEntry, registerExit, type StockFormPage } from '#app/modules/inventory/stock-forms.server.ts'
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
} from '#app/modules/inventory/validators.ts'
import { successAnswer } from '#app/utils/action-answer.ts'
import { failureOf, refusedAnswer } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import type { FailureWords } from '#app/utils/refusal.ts'

// The twin routes /admin/productos/entrada and /salida answer their forms the same way: one
// function here, each route naming its kind.

/**
 * What Bodega reads after an entry into a product that has no average cost yet (sold out, or never
 * costed): the units are in, at $ 0, until someone who sees costs sets it in the product's form.
 */
export const ENTRY_WITHOUT_COST_MESSAGE =
  'Entrada registrada con éxito. El producto aún no tiene costo promedio: la entrada quedó sin costo hasta que el dueño lo fije en el producto.'

/** The entry and exit pages as the role may see them: the product's average cost only with `costs`. */
export function stockFormPageFor(page: StockFormPage, costs: boolean): StockFormLoaderData {
  if (costs || !page.product) return { ...page, costs }
  const { cost: _cost, ...product } = page.product
  return { ...page, product, costs }
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
 *
 * Without `costs` (Bodega) any posted price is ignored: an exit leaves at the average cost read
 * under the movement's lock (as the exit form's read-only price does), an entry comes in at the
 * product's current average cost, so the average stays where it was; a product without one yet
 * takes the units at $ 0 and the answer says the owner must set its cost.
 */
export async function answerStockForm(
  kind: 'entry' | 'exit',
  {
    db,
    jobs,
    by,
    costs,
    noted,
  }: {
    db: Db
    jobs: JobQueue
    by: string
    costs: boolean
    /** Told of each registered movement (the audit log's before → after). */
    noted?: (movement: RegisteredMovement) => void
  },
  request: Request,
) {
  const form = await requireFormData(request)
  const outcome = STOCK_FORM_OUTCOMES[kind]
  if (!costs) {
    form.delete('editPrice')
    form.delete('unitPrice')
  }
  if (kind === 'exit') {
    // Without "Editar Precio" the exit goes at the average cost read under the movement's lock.
    const exit = async (parsed: ExitForm) => {
      const result = await registerExit(db, jobs, parsed, by)
      noted?.({ sku: parsed.sku, stockBefore: result.stock + parsed.quantity, ...result })
      return {}
    }
    return answerMovement(parseExitForm(form), exit, outcome, request)
  }
  if (costs) {
    const entry = async (parsed: EntryForm) => {
      const result = await registerEntry(db, jobs, parsed, by)
      noted?.({ sku: parsed.sku, stockBefore: result.stock - parsed.quantity, ...result })
      return {}
    }
    return answerMovement(parseEntryForm(form), entry, outcome, request)
  }
  // The entry form's checks ask for a cost: a stand-in, replaced below by the product's own, read
  // just before the movement locks the row (a movement landing in between would leave the new
  // average a rounding away from where it was, never a price Bodega typed).
  form.set('unitPrice', '0')
  const parsed = parseEntryForm(form)
  parsed.values.unitPrice = ''
  const atAverageCost = async (entry: EntryForm) => {
    const unitCost = (await kardexProduct(db, entry.sku))?.cost ?? 0
    const result = await registerEntry(db, jobs, { ...entry, unitCost }, by)
    noted?.({ sku: entry.sku, stockBefore: result.stock - entry.quantity, ...result })
    return unitCost === 0 ? { message: ENTRY_WITHOUT_COST_MESSAGE } : {}
  }
  return answerMovement(parsed, atAverageCost, outcome, request)
}

/** A registered movement: the product's stock before and after it, and its average cost after. */
export type RegisteredMovement = MovementResult & { sku: string; stockBefore: number }

/** Notes a movement's stock before → after for the request's audit entry ("Seguridad"). */
export const auditedMovement =
  (context: Readonly<RouterContextProvider>) =>
  ({ sku, stockBefore, stock }: RegisteredMovement) =>
    noteAuditChanges(context, [
      {
        subject: `Producto ${sku}`,
        label: 'Stock',
        before: formatCount(stockBefore),
        after: formatCount(stock),
      },
    ])

async function answerMovement<Form>(
  parsed: StockFormParse<Form>,
  /** Registers the movement; its `message`, when it has one, says more than the usual one. */
  register: (form: Form) => Promise<{ message?: string }>,
  { saved, words }: { saved: string; words: FailureWords },
  request: Request,
) {
  if (!parsed.success) {
    const { message, fieldErrors, values } = parsed
    return refusedAnswer(message, 400, { fieldErrors, values })
  }
  try {
    const { message } = await register(parsed.data)
    return successAnswer(message ?? saved)
  } catch (thrown) {
    const { message, status } = failureOf(thrown, request, words)
    const field = stockRefusalField(thrown)
    const fieldErrors: StockFieldErrors = field ? { [field]: message } : {}
    return refusedAnswer(message, status, { fieldErrors, values: parsed.values })
  }
}
