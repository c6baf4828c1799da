import { expect, test } from 'vitest'
import { ADMIN_EMAIL, signedInAs, testAuthConfig, testAuthContext } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { isSameOrigin, requireAdmin } from './guard.server.ts'

const BASE = 'https://tienda.example'
const t = setupTestDatabase()
const config = testAuthConfig(BASE)
const ctx = () => testAuthContext(t.db, config)

async function postAs(cookie: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}) {
  const request = new Request(`${BASE}/admin/algo`, {
    method: 'POST',
    headers: { Cookie: cookie, ...init.headers },
    body: init.body,
  })
  try {
    return { admin: await requireAdmin(ctx(), request), status: 200 }
  } catch (thrown) {
    return { status: (thrown as { init?: { status?: number } }).init?.status ?? (thrown as Response).status }
  }
}

const form = (fields: Record<string, string>) => ({
  headers: {
    'Content-Type': 'application/x-www-form-urlencoded',
    Origin: BASE,
    'Sec-Fetch-Site': 'same-origin',
  },
  body: new URLSearchParams(fields),
})

test('a same-origin post with the session token passes, in a form field or a header', async () => {
  const { cookie, csrfToken } = await signedInAs(t.db, config, ADMIN_EMAIL)
  expect((await postAs(cookie, form({ csrf: csrfToken, name: 'x' }))).status).toBe(200)
  const multipart = new FormData()
  multipart.set('csrf', csrfToken)
  multipart.set('file', new Blob(['hola']), 'hola.txt')
  expect((await postAs(cookie, { headers: { Origin: BASE }, body: multipart })).status).toBe(200)
  expect(
    (
      await postAs(cookie, {
        headers: { 'X-CSRF-Token': csrfToken, 'Content-Type': 'application/json' },
        body: '{}',
      })
    ).status,
  ).toBe(200)
})

test('the action can still read the body after the guard checked it', async () => {
  const { cookie, csrfToken } = await signedInAs(t.db, config, ADMIN_EMAIL)
  const request = new Request(`${BASE}/admin/algo`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: csrfToken, name: 'Collar' }),
  })
  await requireAdmin(ctx(), request)
  expect((await request.formData()).get('name')).toBe('Collar')
})

test('posts without the token, with another session token or from another site are refused with 403', async () => {
  const { cookie, csrfToken } = await signedInAs(t.db, config, ADMIN_EMAIL)
  const other = await signedInAs(t.db, config, ADMIN_EMAIL)
  expect((await postAs(cookie, form({}))).status).toBe(403)
  expect((await postAs(cookie, form({ csrf: '' }))).status).toBe(403)
  expect((await postAs(cookie, form({ csrf: other.csrfToken }))).status).toBe(403)
  expect((await postAs(cookie, form({ csrf: `${csrfToken}x` }))).status).toBe(403)
  const crossSite = form({ csrf: csrfToken })
  crossSite.headers.Origin = 'https://malo.example'
  expect((await postAs(cookie, crossSite)).status).toBe(403)
  const fetchedCrossSite = form({ csrf: csrfToken })
  fetchedCrossSite.headers['Sec-Fetch-Site'] = 'cross-site'
  expect((await postAs(cookie, fetchedCrossSite)).status).toBe(403)
  expect(
    (
      await postAs(cookie, {
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ csrf: csrfToken }),
      })
    ).status,
  ).toBe(403)
})

test('a malformed body is a 403, never a 500', async () => {
  const { cookie } = await signedInAs(t.db, config, ADMIN_EMAIL)
  const status = await postAs(cookie, {
    headers: { 'Content-Type': 'multipart/form-data; boundary=nada' },
    body: 'esto no es multipart',
  })
  expect(status.status).toBe(403)
})

test('same-origin check', () => {
  const request = (headers: Record<string, string>) =>
    new Request('http://interno:3000/admin', { method: 'POST', headers })
  expect(isSameOrigin(request({}), BASE)).toBe(true)
  expect(isSameOrigin(request({ Origin: BASE }), BASE)).toBe(true)
  expect(isSameOrigin(request({ Origin: 'http://interno:3000' }), BASE)).toBe(true)
  expect(isSameOrigin(request({ Origin: 'null' }), BASE)).toBe(false)
  expect(isSameOrigin(request({ Origin: 'https://tienda.example.malo.co' }), BASE)).toBe(false)
  expect(isSameOrigin(request({ 'Sec-Fetch-Site': 'same-site' }), BASE)).toBe(false)
  expect(isSameOrigin(request({ 'Sec-Fetch-Site': 'same-origin', Origin: BASE }), BASE)).toBe(true)
})

test('signed out during a client navigation: the way back is the page, not its data request', async () => {
  // React Router hands loaders the raw request (future.v8_passThroughRequests).
  const request = new Request(`${BASE}/admin/productos.data?q=col&_routes=routes%2Fadmin%2Flayout`)
  const thrown = await requireAdmin(ctx(), request).catch((error: unknown) => error)
  const location = (thrown as Response).headers.get('Location')!
  expect(new URL(location, BASE).searchParams.get('volver')).toBe('/admin/productos?q=col')
})
