import type { Db } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import type { MovementResult } from '#app/modules/inventory/movement.server.ts'
import { StockRefused } from '#app/modules/inventory/movement.server.ts'
import { registerEntry, registerExit } from '#app/modules/inventory/stock-forms.server.ts'
import {
  ENTRY_FAILURE,
  EXIT_FAILURE,
  parseEntryForm,
  parseExitForm,
  STOCK_FORM_MESSAGES,
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
