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

/** A request with any method and headers (fetch refuses TRACE and CONNECT, and may not set Host). */
function rawSend(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const url = new URL(baseURL())
  return rawRequest({ host: url.hostname, port: url.port, path, method, headers }, (request) => {
    if (body !== undefined) request.write(body)
  })
}

const NOT_SERVED = 'La tienda no atiende solicitudes de este tipo. Abre la página desde el navegador.'

test('methods the shop does not serve are a Spanish 405, never a 500 (issue 23)', async () => {
  for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'PUT', 'DELETE']) {
    const page = await rawSend(method, '/')
    expect(page.status, method).toBe(405)
    expect(page.body, method).toContain(NOT_SERVED)
    const api = await rawSend(method, '/api/buscar?q=collar')
    expect(api.status, method).toBe(405)
    expect(JSON.parse(api.body), method).toEqual({ ok: false, message: NOT_SERVED })
  }
  const options = await fetch(`${baseURL()}/producto/x`, { method: 'OPTIONS' })
  expect(options.status).toBe(204)
  expect(options.headers.get('allow')).toBe('GET, HEAD, POST')
  // Node itself answers what its parser does not know, and drops CONNECT: no 5xx either way.
  expect((await rawSend('FOO', '/')).status).toBe(400)
  await expect(rawSend('CONNECT', '127.0.0.1:443')).rejects.toThrow()
  // And the shop still answers.
  expect((await fetch(baseURL())).status).toBe(200)
})

test('a Host the app cannot make an address of is a Spanish 400, not a 500 (issue 23)', async () => {
  for (const host of ['a b', 'x:99999', '%']) {
    const answer = await rawSend('GET', '/', { Host: host })
    expect(answer.status, host).toBe(400)
    expect(answer.body, host).toContain('La solicitud no indica una dirección válida de la tienda.')
  }
})

test('a post from the shop’s page that arrives under another Host is refused in Spanish, not "Bad Request" (issue 23)', async () => {
  const port = new URL(baseURL()).port
  const answer = await rawSend(
    'POST',
    '/finalizar-pedido',
    { Host: `localhost:${port}`, Origin: baseURL(), 'Content-Type': 'application/x-www-form-urlencoded' },
    'name=Ana',
  )
  expect(answer.status).toBe(400)
  expect(answer.body).toContain('llegó a la tienda por una dirección distinta de la que muestra tu navegador')
  expect(answer.body).not.toContain('Bad Request')
})
