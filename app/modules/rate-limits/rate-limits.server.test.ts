import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Database } from '#app/db/client.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { createTestDatabase } from '#tests/db.ts'
import { clientKeyOf, RATE_LIMITS, rateLimits } from './rate-limits.server.ts'

let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

test('past the allowance a client is refused with the limit’s Spanish message and status 429', async () => {
  const limits = rateLimits(database.db)
  const { points, message } = RATE_LIMITS.checkout
  for (let i = 0; i < points; i++) await limits.require('checkout', '203.0.113.7')
  const refusal = await limits.require('checkout', '203.0.113.7').catch((thrown: unknown) => thrown)
  expect(refusal).toBeInstanceOf(Refusal)
  expect(refusal).toMatchObject({ status: 429, message })
  expect(message).toMatch(/Espera unos minutos/)
  // Another client, and another limit of the same client, keep their own allowance.
  await expect(limits.take('checkout', '203.0.113.8')).resolves.toBe(true)
  await expect(limits.take('signIn', '203.0.113.7')).resolves.toBe(true)
})

test('two limiters on one database (two web processes) count one allowance', async () => {
  const first = rateLimits(database.db)
  const second = rateLimits(database.db)
  const { points } = RATE_LIMITS.signIn
  const results = await Promise.all(
    Array.from({ length: points + 4 }, (_, i) => (i % 2 ? first : second).take('signIn', '198.51.100.4')),
  )
  expect(results.filter(Boolean)).toHaveLength(points)
  await expect(first.take('signIn', '198.51.100.4')).resolves.toBe(false)
  await expect(second.take('signIn', '198.51.100.4')).resolves.toBe(false)
})

test('an IPv6 client is counted by its /64; a scope counts apart', async () => {
  const limits = rateLimits(database.db)
  const { points } = RATE_LIMITS.beacon
  for (let i = 0; i < points; i++) {
    await expect(limits.take('beacon', `2001:db8:1:2::${(i + 1).toString(16)}`, 'clic')).resolves.toBe(true)
  }
  await expect(limits.take('beacon', '2001:db8:1:2:ffff::1', 'clic')).resolves.toBe(false)
  await expect(limits.take('beacon', '2001:db8:1:2::1', 'vista')).resolves.toBe(true)
  await expect(limits.take('beacon', '2001:db8:1:3::1', 'clic')).resolves.toBe(true)
})

test('a request without a peer address is not limited; scale multiplies the allowance', async () => {
  const limits = rateLimits(database.db, { scale: 2 })
  const { points } = RATE_LIMITS.checkout
  for (let i = 0; i < points * 2; i++) await expect(limits.take('checkout', '192.0.2.9')).resolves.toBe(true)
  await expect(limits.take('checkout', '192.0.2.9')).resolves.toBe(false)
  for (let i = 0; i < points * 3; i++) await expect(limits.take('checkout', null)).resolves.toBe(true)
})

test('an allowance used up comes back once its window has passed', async () => {
  const limits = rateLimits(database.db)
  const { points } = RATE_LIMITS.upload
  for (let i = 0; i < points; i++) await limits.take('upload', '192.0.2.50')
  await expect(limits.take('upload', '192.0.2.50')).resolves.toBe(false)
  // The window's end, as another process would find it after the window: in the past.
  await database.executeSql(`update rate_limits set expire = now() - interval '1 second' where key = $1`, [
    'upload:192.0.2.50',
  ])
  await expect(limits.take('upload', '192.0.2.50')).resolves.toBe(true)
})

describe('clientKeyOf: the rate limits’ key', () => {
  test('an IPv6 client by its /64; IPv4 (also mapped) as it is', () => {
    expect(clientKeyOf('2001:db8:1:2:aaaa::1')).toBe(clientKeyOf('2001:db8:1:2:bbbb::9'))
    expect(clientKeyOf('2001:db8:1:2::1')).not.toBe(clientKeyOf('2001:db8:1:3::1'))
    expect(clientKeyOf('::ffff:192.0.2.7')).toBe('192.0.2.7')
    expect(clientKeyOf('192.0.2.7')).toBe('192.0.2.7')
  })
  test('no address: no shared bucket (not limited)', () => {
    expect(clientKeyOf(null)).toBeNull()
    expect(clientKeyOf('  ')).toBeNull()
  })
})
