import { data } from 'react-router'
import { failureAnswer, type AnswerDetails } from './action-answer.ts'
import { Refusal, type FailureWords } from './refusal.ts'
import { logger } from './logger.server.ts'

export type Failure = { message: string; status: number }

/** React Router's own answers (a redirect, `data(…, { status })`) are not failures to word. */
export function isRouterAnswer(thrown: unknown): boolean {
  return (
    thrown instanceof Response ||
    (typeof thrown === 'object' &&
      thrown !== null &&
      (thrown as { type?: unknown }).type === 'DataWithResponseInit')
  )
}

/**
 * A request refused before the route's own work starts (an unreadable form, a post without its
 * anti-forgery token): React Router's `data({ message }, { status })`. These guards run before any
 * route's `try`, so they stay router answers rather than `Refusal`s: a page answers them with its
 * error boundary (which shows a 4xx's `message`), `failureOf` throws them on, and `jsonFailure`
 * answers them as JSON.
 */
export function refusedRequest(message: string, status: number) {
  return data({ message }, { status })
}

/** The message and status of a `refusedRequest`, if that is what was thrown. */
function refusedRequestOf(thrown: unknown): Failure | null {
  if (!isRouterAnswer(thrown) || thrown instanceof Response) return null
  const { data: body, init } = thrown as { data: unknown; init: ResponseInit | null }
  const message = (body as { message?: unknown } | null)?.message
  const status = init?.status ?? 200
  return typeof message === 'string' && status >= 400 && status < 500 ? { message, status } : null
}

/**
 * How a module words a thrown `Response` (a redirect) for a script client, e.g. the admin guard's
 * redirect to sign in as a 401 with the way back in; `undefined` for one it does not know.
 */
export type ScriptAnswer = (thrown: Response, request: Request) => Response | undefined

export function logUnexpected(error: unknown, request: Request) {
  const { pathname } = new URL(request.url)
  logger.error({ err: error }, `[${request.method} ${pathname}]`)
}

/**
 * The one way anything thrown in a loader or action becomes what the person reads: a `Refusal`
 * says its own message (in the route's frame unless it stands alone) with its status; anything
 * else is logged with the request and reads `unexpected`, with status 500. React Router's own
 * answers are thrown on untouched.
 */
export function failureOf(thrown: unknown, request: Request, words: FailureWords): Failure {
  if (isRouterAnswer(thrown)) throw thrown
  const frame = words.frame ?? ((message: string) => message)
  if (thrown instanceof Refusal) {
    if (thrown.cause !== undefined) logUnexpected(thrown.cause, request)
    return { message: thrown.standsAlone ? thrown.message : frame(thrown.message), status: thrown.status }
  }
  logUnexpected(thrown, request)
  return { message: frame(words.unexpected), status: 500 }
}

/** A refused form action: its answer (`action-answer.ts`) with the HTTP status it is sent with. */
export function refusedAnswer<Extra extends AnswerDetails = Record<never, never>>(
  message: string,
  status: number,
  extra?: Extra,
) {
  return data(failureAnswer(message, extra), { status })
}

/** Anything a form action throws as its refused answer, worded and with the status `failureOf` gives. */
export function formFailure<Extra extends AnswerDetails = Record<never, never>>(
  thrown: unknown,
  request: Request,
  words: FailureWords,
  extra?: Extra,
) {
  const { message, status } = failureOf(thrown, request, words)
  return refusedAnswer(message, status, extra)
}

/**
 * A script client's (fetch, XMLHttpRequest) failed outcome: JSON `{ ok: false, message }`, never a
 * redirect to HTML or React Router's English error page. A `refusedRequest` keeps its message and
 * status; a thrown `Response` is worded by `scriptAnswer` (the module that threw it knows what it
 * means), and thrown on when nobody does.
 */
export function jsonFailure(
  thrown: unknown,
  request: Request,
  words: FailureWords,
  scriptAnswer?: ScriptAnswer,
): Response {
  const answered = jsonRefusalOf(thrown, request, scriptAnswer)
  if (answered) return answered
  const { message, status } = failureOf(thrown, request, words)
  return Response.json({ ok: false, message }, { status })
}

/**
 * A refusal made before the route's own work, as JSON for a script client: a `refusedRequest` with
 * its message and status, a thrown `Response` as `scriptAnswer` words it; anything else
 * `undefined`.
 */
export function jsonRefusalOf(
  thrown: unknown,
  request: Request,
  scriptAnswer?: ScriptAnswer,
): Response | undefined {
  const refused = refusedRequestOf(thrown)
  if (refused) return Response.json({ ok: false, message: refused.message }, { status: refused.status })
  return thrown instanceof Response ? scriptAnswer?.(thrown, request) : undefined
}

/** A script client (the product form's upload, fetch) says so: it accepts JSON, not a page. */
export function wantsJson(request: Request): boolean {
  return (request.headers.get('Accept') ?? '').includes('application/json')
}
