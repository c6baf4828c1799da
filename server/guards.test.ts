import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import express from 'express'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BAD_URL_MESSAGE, LOCAL_SIGN_IN_ONLY_MESSAGE, localClientsOnly, refuseBadUrl } from './app.ts'

/** The request guards of server/app.ts in front of an app that answers 200 to whatever reaches it. */
let server: http.Server
let port = 0

beforeAll(async () => {
  const app = express()
  // As in production (server/index.js): a proxy on this machine or the LAN is trusted.
  app.set('trust proxy', 'loopback, linklocal, uniquelocal')
  app.use(refuseBadUrl())
  app.use(localClientsOnly(['/dev-idp', '/login-admin/callback']))
  app.all('/{*splat}', (req, res) => {
    res.json({ reached: req.originalUrl })
  })
  server = http.createServer(app)
  // Every interface, so a test can come in through a non-loopback address too.
  await new Promise<void>((resolve) => server.listen(0, '::', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function get(
  path: string,
  options: { address?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: options.address ?? '127.0.0.1', port, path, headers: options.headers },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode!, type: response.headers['content-type'] ?? '', body }),
        )
      },
    )
    request.on('error', reject)
    request.end()
  })
}

describe('a NUL byte in the address is a 400 in Spanish before any route sees it', () => {
  test.each([
    '/producto/a%00b',
    '/categoria/%00',
    '/buscar?q=%00',
    '/?categoria=%00',
    '/admin/productos/editar/%00',
    '/admin/categorias/editar/%00',
    '/admin/productos?q=%00&pagina=2',
  ])('page %s', async (path) => {
    const answer = await get(path)
    expect(answer.status).toBe(400)
    expect(answer.type).toMatch(/^text\/html/)
    expect(answer.body).toContain(BAD_URL_MESSAGE)
  })

  test.each([
    '/api/buscar?q=%00',
    '/api/productos?q=%00',
    '/api/carrito?skus=a%00',
    '/api/carrito?skus=%00',
    '/API/Buscar?q=%00',
  ])('resource %s answers JSON, shaped as every API refusal', async (path) => {
    const answer = await get(path)
    expect(answer.status).toBe(400)
    expect(answer.type).toMatch(/^application\/json/)
    expect(JSON.parse(answer.body)).toEqual({ ok: false, message: BAD_URL_MESSAGE })
  })

  test.each(['/producto/%ff', '/categoria/%ED%A0%80', '/producto/%', '/admin/productos/editar/%C0%80'])(
    'a path that does not decode, %s, gets the same Spanish 400',
    async (path) => {
      const answer = await get(path)
      expect(answer.status).toBe(400)
      expect(answer.body).toContain(BAD_URL_MESSAGE)
    },
  )

  test('other addresses, and an encoded "%00" text, pass', async () => {
    expect((await get('/producto/COL-123')).status).toBe(200)
    expect((await get('/buscar?q=%2500')).status).toBe(200)
    expect((await get('/buscar?q=100%25')).status).toBe(200)
  })
})

describe('the local sign-in provider and its callback answer this machine only', () => {
  test.each([
    ['127.0.0.1', '127.0.0.1'],
    ['localhost', '127.0.0.1'],
    ['[::1]', '::1'],
  ])('a browser on %s gets through', async (host, address) => {
    for (const path of ['/dev-idp/.well-known/openid-configuration', '/login-admin/callback?code=x']) {
      const answer = await get(path, { address, headers: { Host: `${host}:${port}` } })
      expect(answer.status).toBe(200)
    }
  })

  test('a Host that is not a loopback name (DNS rebinding) is refused', async () => {
    const answer = await get('/dev-idp/auth', { headers: { Host: `tienda.example.co:${port}` } })
    expect(answer).toMatchObject({ status: 403, body: LOCAL_SIGN_IN_ONLY_MESSAGE })
  })

  test.each([
    '/login-admin/%63allback?code=x',
    '/LOGIN-ADMIN/Callback?code=x',
    '/dev-idp%2Fauth',
    '/DEV-IDP/auth',
  ])('the guard sees the path as routes do: %s from another host name is refused', async (path) => {
    const answer = await get(path, { headers: { Host: `tienda.example.co:${port}` } })
    expect(answer).toMatchObject({ status: 403, body: LOCAL_SIGN_IN_ONLY_MESSAGE })
  })

  test('a client forwarded by a proxy from another machine is refused', async () => {
    const answer = await get('/login-admin/callback?code=x', {
      headers: { Host: `localhost:${port}`, 'X-Forwarded-For': '192.168.1.50' },
    })
    expect(answer).toMatchObject({ status: 403, body: LOCAL_SIGN_IN_ONLY_MESSAGE })
  })

  const lanAddress = Object.values(os.networkInterfaces())
    .flat()
    .find((info) => info && info.family === 'IPv4' && !info.internal)?.address
  test.skipIf(!lanAddress)('a client on the network is refused', async () => {
    for (const path of ['/dev-idp/.well-known/openid-configuration', '/login-admin/callback?code=x']) {
      const answer = await get(path, { address: lanAddress, headers: { Host: `localhost:${port}` } })
      expect(answer).toMatchObject({ status: 403, body: LOCAL_SIGN_IN_ONLY_MESSAGE })
    }
    // The rest of the shop is for everyone.
    expect((await get('/', { address: lanAddress })).status).toBe(200)
  })
})
