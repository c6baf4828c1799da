import type { StockChannel } from '#app/jobs/stock-channels.ts'

/** What pushing one SKU's units to a channel came to, when the channel answered. */
export type PushOutcome =
  | { status: 'ok'; quantity: number; message: string }
  /** The channel has no listing for the SKU: nothing to set, nothing to retry. */
  | { status: 'not-listed'; message: string }
  /** The channel refused in a way a retry cannot fix (e.g. one SKU on two Shopify variants). */
  | { status: 'failed'; message: string }

/** A channel's quantity for a SKU, or why it has none. */
export type ChannelQuantity = { quantity: number } | { missing: string }

/** One outside channel the shop's available units are mirrored to. */
export interface StockChannelClient {
  readonly channel: StockChannel
  /** Sets the SKU's units on the channel (every listing or variant that carries the SKU). */
  pushStock(sku: string, quantity: number): Promise<PushOutcome>
  /** The channel's current units for these SKUs (a bounded batch, read-only). */
  readStock(skus: readonly string[]): Promise<Map<string, ChannelQuantity>>
}

/** A failed call to a channel; `retryable` ones are worth the job queue's later retry. */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message)
  }
}

export type RetryPolicy = {
  /** Attempts in all, the first included. */
  attempts: number
  /** First wait; each retry doubles it, and a random part of it is waited (full jitter). */
  baseDelayMs: number
  maxDelayMs: number
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000 }

/** Exponential backoff with full jitter: a random wait up to base × 2^attempt, or what the channel asked. */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0)
    return Math.min(retryAfterSeconds * 1000, policy.maxDelayMs)
  const ceiling = Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs)
  return Math.random() * ceiling
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Seconds from a Retry-After header (only the delta form; a date is left to our own backoff). */
export function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get('retry-after')
  if (value === null || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined
  return Number(value)
}
