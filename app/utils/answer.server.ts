import { data } from 'react-router'
import { Refusal, type FailureWords } from './refusal.ts'

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

export function logUnexpected(error: unknown, request: Request) {
  const { pathname } = new URL(request.url)
  console.error(`[${request.method} ${pathname}]`, error)
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

/** A form action's failed outcome, `{ ok: false, message, at }`, with the failure's status. */
export function formFailure<Extra extends object = object>(
  thrown: unknown,
  request: Request,
  words: FailureWords,
  extra?: Extra,
) {
  const { message, status } = failureOf(thrown, request, words)
  return data({ ok: false as const, message, at: Date.now(), ...(extra as Extra) }, { status })
}

/** A script client's (fetch, XMLHttpRequest) failed outcome: JSON `{ ok: false, message }`. */
export function jsonFailure(thrown: unknown, request: Request, words: FailureWords): Response {
  const { message, status } = failureOf(thrown, request, words)
  return Response.json({ ok: false, message }, { status })
}
