/**
 * What every form action answers, and how every form page reads it. Shared by server and browser:
 * the server builds it (`answer.server.ts` adds the HTTP status), the page reads it with
 * `readActionAnswer`, and a page can word its own outcome (a check made before posting) the same way.
 * Script clients (`/admin/productos/guardar`, `/api/*`) get the same `ok` and `message` as JSON.
 */
/**
 * Spec §5's "no answer from the server": a post that got none (the connection dropped), or a
 * failure nobody foresaw. Here, beside the answer shape, so a page that words a lost post needs
 * no other module.
 */
export const NO_SERVER_MESSAGE =
  'No hay respuesta del servidor, intente más tarde o comuníquese con servicio al cliente'

export type ActionAnswer = {
  ok: boolean
  /** The outcome as the person reads it; several form-level messages read together. */
  message: string
  /** Changes on every answer, so the same message twice is shown (and toasted) twice. */
  at: number
  /** Each form-level message on its own, when a form can have several (the checkout lists them). */
  messages?: string[]
  /** A refused form's message per field, shown beside it. */
  fieldErrors?: Partial<Record<string, string>>
  /** A refused form's values as typed, so the form shows them again. */
  values?: Record<string, string | boolean>
}

/**
 * What a form's answer carries besides its outcome: the shape's own fields, typed as the shape says,
 * and whatever else its page needs (an `intent`, a `report`…).
 */
export type AnswerDetails = Partial<Pick<ActionAnswer, 'messages' | 'fieldErrors' | 'values'>> & {
  [extra: string]: unknown
}

/** A done action: `{ ok: true, message, at }` and whatever the page needs besides (`extra`). */
export function successAnswer<Extra extends AnswerDetails = Record<never, never>>(
  message: string,
  extra?: Extra,
) {
  return { ok: true as const, message, at: Date.now(), ...(extra as Extra) }
}

/** A refused action: `{ ok: false, message, at }`, its details and whatever else the page needs. */
export function failureAnswer<Extra extends AnswerDetails = Record<never, never>>(
  message: string,
  extra?: Extra,
) {
  return { ok: false as const, message, at: Date.now(), ...(extra as Extra) }
}

// The details a page's own answers carry, typed as that page's action answers them.
type Carried<Answer, Key extends keyof AnswerDetails> = Answer extends { [K in Key]: infer Value }
  ? NonNullable<Value>
  : never
type Or<T, Fallback> = [T] extends [never] ? Fallback : T

/**
 * The one way a page reads an action's answer (`actionData`, `fetcher.data`, or one it made
 * itself): the message with its tone and nonce for `FormMessage`, each form-level message, and a
 * refusal's field messages and typed values (none after a success, so the form starts afresh).
 */
export function readActionAnswer<Answer extends ActionAnswer>(answer: Answer | null | undefined) {
  const refused = answer && !answer.ok ? answer : null
  return {
    message: answer?.message || null,
    messages: answer ? (answer.messages ?? (answer.message ? [answer.message] : [])) : [],
    tone: answer?.ok ? ('success' as const) : ('error' as const),
    nonce: answer?.at,
    fieldErrors: (refused?.fieldErrors ?? {}) as Partial<
      Or<Carried<Answer, 'fieldErrors'>, Record<string, string>>
    >,
    values: (refused?.values ?? null) as Or<
      Carried<Answer, 'values'>,
      Record<string, string | boolean>
    > | null,
  }
}
