import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  ADMIN_EMAIL,
  authorizeAtProvider,
  setCookies,
  startLocalIdentityProvider,
  testAuthContext,
} from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { requireAdmin } from './guard.server.ts'
import { beginSignIn, completeSignIn } from './oidc.server.ts'

/** Several web processes of one shop (WEB_CONCURRENCY) each run the local provider. */

const t = setupTestDatabase()
let idp: Awaited<ReturnType<typeof startLocalIdentityProvider>>

beforeAll(async () => {
  idp = await startLocalIdentityProvider(t.db, { instances: 2 })
})
afterAll(async () => {
  await idp?.close()
})

test('a sign-in whose steps land on different processes in turn still completes', async () => {
  const ctx = testAuthContext(t.db, idp.config)
  const start = await beginSignIn(ctx, new Request(`${idp.base}/login-admin`, { method: 'POST' }))
  // Discovery, authorization, the sign-in page, its form and the token exchange alternate between
  // the two providers: each reads what the other wrote.
  const callback = await authorizeAtProvider(start.headers.get('Location')!, { email: ADMIN_EMAIL })
  expect(callback.searchParams.get('error')).toBeNull()
  const response = await completeSignIn(
    ctx,
    new Request(callback, { headers: { Cookie: `vitrina_oidc=${setCookies(start).get('vitrina_oidc')}` } }),
  )
  expect(response.headers.get('Location')).toBe('/admin')
  const cookie = `vitrina_admin=${setCookies(response).get('vitrina_admin')}`
  const admin = await requireAdmin(ctx, new Request(`${idp.base}/admin`, { headers: { Cookie: cookie } }))
  expect(admin.email).toBe(ADMIN_EMAIL)
})

test('a code is used once even when the second attempt reaches the other process', async () => {
  const ctx = testAuthContext(t.db, idp.config)
  const start = await beginSignIn(ctx, new Request(`${idp.base}/login-admin`, { method: 'POST' }))
  const callback = await authorizeAtProvider(start.headers.get('Location')!, { email: ADMIN_EMAIL })
  const request = () =>
    new Request(callback, { headers: { Cookie: `vitrina_oidc=${setCookies(start).get('vitrina_oidc')}` } })
  expect((await completeSignIn(ctx, request())).headers.get('Location')).toBe('/admin')
  const replay = await completeSignIn(ctx, request())
  expect(replay.headers.get('Location')).not.toBe('/admin')
})
