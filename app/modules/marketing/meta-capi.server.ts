import type { MetaUserData } from './user-data.server.ts'

/**
 * Meta's Conversions API (integrations.md): `POST {META_API_URL}/{pixel-id}/events?access_token=…`
 * with `{ data: [event], test_event_code? }`.
 */

export type MetaServerEvent = {
  event_name: string
  /** Unix seconds. Meta refuses the whole batch when one is more than 7 days old. */
  event_time: number
  /** The pixel's `eventID` for the same event: Meta counts the pair once. */
  event_id: string
  event_source_url: string
  action_source: 'website'
  user_data: MetaUserData
  custom_data?: Record<string, unknown>
}

export type MetaCapiOptions = {
  baseUrl: string
  pixelId: string
  token: string
  /** Routes events to the "Test events" tool of Events Manager (META_TEST_EVENT_CODE). */
  testEventCode?: string
  fetch?: typeof fetch
}

/**
 * Graph API codes worth a later retry: 1 unknown, 2 service unavailable, 4/17/32/613 rate limits,
 * 341 application limit.
 */
const RETRYABLE_CODES = new Set([1, 2, 4, 17, 32, 341, 613])

export class MetaApiError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly code?: number,
    readonly fbtraceId?: string,
  ) {
    super(message)
  }
}

export interface MetaCapiClient {
  readonly testEventCode?: string
  /** Sends the events; throws `MetaApiError` when Meta (or the network) refuses. */
  send(events: MetaServerEvent[]): Promise<{ eventsReceived: number; fbtraceId: string }>
}

type GraphAnswer = {
  events_received?: number
  fbtrace_id?: string
  error?: {
    message?: string
    type?: string
    code?: number
    error_subcode?: number
    is_transient?: boolean
    fbtrace_id?: string
  }
}

export function metaCapiClient(options: MetaCapiOptions): MetaCapiClient {
  const doFetch = options.fetch ?? fetch
  const url = new URL(`${options.baseUrl.replace(/\/$/, '')}/${encodeURIComponent(options.pixelId)}/events`)
  url.searchParams.set('access_token', options.token)
  return {
    testEventCode: options.testEventCode,
    async send(events) {
      let response: Response
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            data: events,
            ...(options.testEventCode ? { test_event_code: options.testEventCode } : {}),
          }),
          signal: AbortSignal.timeout(15_000),
        })
      } catch (error) {
        // Never the URL in the message: it carries the access token.
        throw new MetaApiError(
          `sin respuesta de Meta (${error instanceof Error ? error.name : 'error'})`,
          true,
        )
      }
      const answer = (await response.json().catch(() => null)) as GraphAnswer | null
      if (!response.ok || answer?.error || !answer) {
        const error = answer?.error
        const retryable =
          response.status >= 500 ||
          response.status === 429 ||
          error?.is_transient === true ||
          (error?.code !== undefined && RETRYABLE_CODES.has(error.code))
        throw new MetaApiError(
          error?.message ?? `HTTP ${response.status}`,
          retryable,
          error?.code,
          error?.fbtrace_id,
        )
      }
      return { eventsReceived: answer.events_received ?? 0, fbtraceId: answer.fbtrace_id ?? '' }
    },
  }
}
