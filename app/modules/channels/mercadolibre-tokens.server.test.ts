import { eq } from 'drizzle-orm'
import { beforeEach, expect, test } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import {
  FIRST_REFRESH_TOKEN,
  STAND_IN_CLIENT_ID,
  STAND_IN_CLIENT_SECRET,
  startMercadoLibreStandIn,
} from '#tests/stand-ins/mercadolibre.ts'
import { ChannelError } from './channel.server.ts'
import { mercadoLibreOAuth } from './mercadolibre.server.ts'
import { mercadoLibreTokens } from './mercadolibre-tokens.server.ts'
import { channelCredentials } from './schema.ts'
import { secretBox } from './secret-box.server.ts'

const t = setupTestDatabase()
const standIn = standInForFile(startMercadoLibreStandIn)

beforeEach(async () => {
  await t.db.delete(channelCredentials)
})

const tokens = (options: { secret?: string; refreshToken?: string; accessToken?: string } = {}) =>
  mercadoLibreTokens({
    db: t.db,
    box: secretBox(options.secret ?? 'secreto-de-sesion-de-prueba'),
    seed: { refreshToken: options.refreshToken ?? FIRST_REFRESH_TOKEN, accessToken: options.accessToken },
    exchange: mercadoLibreOAuth({
      baseUrl: standIn().url,
      clientId: STAND_IN_CLIENT_ID,
      clientSecret: STAND_IN_CLIENT_SECRET,
    }),
  })

const storedRow = async () =>
  (await t.db.select().from(channelCredentials).where(eq(channelCredentials.channel, 'mercadolibre')))[0]

test('without a configured access token the first use refreshes, and the new pair is stored encrypted', async () => {
  const access = await tokens().accessToken()
  expect(access).toMatch(/^APP_USR-/)
  expect(standIn().refreshes).toBe(1)
  const row = (await storedRow())!
  expect(row.accessToken).not.toContain(access)
  expect(row.refreshToken).not.toContain(standIn().currentRefreshToken)
  expect(row.refreshToken).not.toContain('TG-')
  expect(row.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 5 * 3600 * 1000)
  // Another process (same secret) reads the stored pair instead of refreshing again.
  expect(await tokens().accessToken()).toBe(access)
  expect(standIn().refreshes).toBe(1)
})

test('a configured access token is used until refused; renew spends the refresh token once', async () => {
  const initial = standIn().grantAccessToken()
  const source = tokens({ accessToken: initial })
  expect(await source.accessToken()).toBe(initial)
  expect(standIn().refreshes).toBe(0)
  const renewed = await source.renew(initial)
  expect(renewed).not.toBe(initial)
  // A second worker that was refused the same old token gets the new one without refreshing.
  expect(await tokens({ accessToken: initial }).renew(initial)).toBe(renewed)
  expect(standIn().refreshes).toBe(1)
})

test('concurrent refreshes under the row lock spend the refresh token only once', async () => {
  const initial = standIn().grantAccessToken()
  // The row exists already (seeded), so only its lock keeps the workers apart.
  expect(await tokens({ accessToken: initial }).accessToken()).toBe(initial)
  standIn().delayOAuth(50)
  // Separate token sources, as separate workers or processes have.
  const results = await Promise.all(
    Array.from({ length: 5 }, () => tokens({ accessToken: initial }).renew(initial)),
  )
  expect(new Set(results).size).toBe(1)
  expect(standIn().refreshes).toBe(1)
  expect(standIn().requests.filter((r) => r.path === '/oauth/token')).toHaveLength(1)
})

test('a new ML_REFRESH_TOKEN in the configuration replaces the stored pair', async () => {
  await tokens().accessToken()
  const reauthorised = standIn().currentRefreshToken
  const fresh = standIn().grantAccessToken()
  expect(await tokens({ refreshToken: reauthorised, accessToken: fresh }).accessToken()).toBe(fresh)
})

test('a pair sealed with another SESSION_SECRET is started again from the configuration', async () => {
  await tokens({ secret: 'secreto-viejo' }).accessToken()
  standIn().reset()
  const access = await tokens({ secret: 'secreto-nuevo' }).accessToken()
  expect(access).toMatch(/^APP_USR-/)
  expect(standIn().refreshes).toBe(1)
})

test('a spent refresh token fails without retry and leaves the stored pair as it was', async () => {
  await tokens().accessToken()
  const before = await storedRow()
  standIn().reset() // the stand-in now only accepts FIRST_REFRESH_TOKEN, which the store no longer has
  standIn().expireAccessTokens()
  const access = await tokens().accessToken()
  const error = await tokens()
    .renew(access)
    .catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ChannelError)
  expect((error as ChannelError).retryable).toBe(false)
  expect(await storedRow()).toEqual(before)
})
