import { expect, test } from 'vitest'
import { baseURL, setupBrowser } from './browser.ts'
import { rawRequest } from '#tests/http.ts'
import { signInAsAdmin } from './admin-session.ts'

/** Probes of the running store (issue 7): odd requests get a 4xx in Spanish, never a 500. */
const browser = setupBrowser()

const BAD_URL = 'La dirección no es válida: contiene un carácter no permitido.'

test.each([
  '/producto/a%00b',
  '/categoria/%00',
  '/categoria/%00/nombre',
  '/buscar?q=%00',
  '/?categoria=%00',
  '/api/buscar?q=%00',
  '/api/productos?q=%00',
  '/api/productos?categoria=%00',
  '/api/carrito?skus=%00',
  '/admin/productos/editar/%00',
  '/admin/categorias/editar/%00',
  '/admin/productos?q=%00',
])('a NUL byte in %s is a 400 in Spanish, anonymous', async (path) => {
  const response = await fetch(`${baseURL()}${path}`, { redirect: 'manual' })
  expect(response.status).toBe(400)
  if (path.startsWith('/api/')) expect(await response.json()).toEqual({ ok: false, message: BAD_URL })
  else expect(await response.text()).toContain(BAD_URL)
})

test('an API refusal has one shape, `{ ok: false, message }`, whatever the path’s case', async () => {
  for (const [path, message] of [
    ['/API/Buscar?q=%00', BAD_URL],
    ['/api/productos?cursor=no-es-un-cursor', 'Parámetros de página no válidos.'],
  ]) {
    const response = await fetch(`${baseURL()}${path}`, { redirect: 'manual' })
    expect(response.status, path).toBe(400)
    expect(await response.json(), path).toEqual({ ok: false, message })
  }
})

test('a NUL byte in an admin address is a 400 for a signed-in admin too', async () => {
  const page = await browser.page()
  await signInAsAdmin(page)
  for (const path of [
    '/admin/productos/editar/%00',
    '/admin/categorias/editar/%00',
    '/admin/productos?q=%00',
  ]) {
    const response = await page.request.get(path, { maxRedirects: 0 })
    expect(response.status(), path).toBe(400)
    expect(await response.text()).toContain(BAD_URL)
  }
  await page.close()
})

/** A GET with the given headers, answered status and body (fetch may not set Host). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(path, baseURL())
  return rawRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers })
}

test('the local sign-in provider and its callback refuse anyone but this machine', async () => {
  const paths = ['/dev-idp/.well-known/openid-configuration', '/login-admin/callback?code=x&state=y']
  const port = new URL(baseURL()).port
  for (const path of paths) {
    // Forwarded by a proxy from another machine, or under a name that is not this machine's.
    const strangers: Record<string, string>[] = [
      { 'X-Forwarded-For': '192.168.1.50' },
      { Host: `tienda-de-otro.example:${port}` },
    ]
    for (const headers of strangers) {
      const answer = await rawGet(path, headers)
      expect(answer, `${path} ${JSON.stringify(headers)}`).toEqual({
        status: 403,
        body: 'El inicio de sesión local solo atiende a esta misma máquina (localhost, 127.0.0.1 o [::1]).',
      })
    }
    expect((await rawGet(path, { Host: `localhost:${port}` })).status).not.toBe(403)
  }
})
