/**
 * A request the store declines, carrying the Spanish text the person reads and the HTTP status it
 * is answered with. Domain code throws it; `answer.server.ts` turns it into the route's answer.
 *
 * - `standsAlone`: the text is shown as it is, never inside a route's frame such as spec §8's
 *   "Error: {message}" (spec §5's validation texts stand alone).
 * - `cause`: an unexpected failure behind the refusal (a storage outage…): the person reads the
 *   refusal, the cause is logged.
 */
export class Refusal extends Error {
  override name = 'Refusal'
  readonly status: number
  readonly standsAlone: boolean

  constructor(message: string, options: { status?: number; standsAlone?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.status = options.status ?? 422
    this.standsAlone = options.standsAlone ?? false
  }
}

/** How a route words its failures (see `failureOf` in `answer.server.ts`). */
export type FailureWords = {
  /** What the person reads when something unexpected fails (the error itself is logged). */
  unexpected: string
  /** The route's frame around a refusal that does not stand alone, e.g. spec §8's "Error: {message}". */
  frame?: (message: string) => string
}
