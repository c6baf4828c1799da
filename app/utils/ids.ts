import { z } from 'zod'

/**
 * Ids we hand out (orders, checkout keys, queued jobs) are UUIDs: anything else is refused before
 * it reaches PostgreSQL, which would answer a malformed uuid (or a NUL) with an error.
 */
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && z.uuid().safeParse(value).success
