import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReadableStreamFromReadable } from '@react-router/node'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { rawRequest } from '#tests/http.ts'
import { BODY_TOO_LARGE_MESSAGE, limitBodySize, securityHeaders, sendsHsts } from './app.ts'

/** The body-size limit with small limits: 1 KB for the shop, 3 KB for a receipt, 4 KB for /admin. */
let server: http.Server
let port = 0
const seen: { path: string; bytes: number | string }[] = []

beforeAll(async () => {
  const app = express()
  app.use(limitBodySize({ store: 1024, receipt: 3072, admin: 4096 }))
  // Reads the body the way the React Router adapter hands it to the app (a web stream over req).
  app.all('/{*splat}', async (req, res) => {
    const request = new Request(`http://127.0.0.1${req.originalUrl}`, {
      method: req.method,
      body: createReadableStreamFromReadable(req),
      duplex: 'half',
    } as RequestInit)
    try {
      const bytes = (await request.arrayBuffer()).byteLength
      seen.push({ path: req.path, bytes })
      if (!res.headersSent) res.json({ bytes })
    } catch (error) {
      seen.push({ path: req.path, bytes: `error: ${(error as Error).message}` })
      if (!res.headersSent) res.status(400).json({ unreadable: true })
    }
  })
  server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Posts `size` bytes in 256-byte chunks with Transfer-Encoding: chunked (no Content-Length). */
function postChunked(path: string, size: number): Promise<{ status: number; body: string }> {
  const options = {
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream' },
  }
  return rawRequest(options, (request) => {
    expect(request.getHeader('Content-Length')).toBeUndefined()
    for (let sent = 0; sent < size; sent += 256) request.write(Buffer.alloc(Math.min(256, size - sent), 120))
  })
}

test('a chunked body within the limit reaches the app whole', async () => {
  expect(await postChunked('/pedido', 1000)).toEqual({ status: 200, body: '{"bytes":1000}' })
  expect(await postChunked('/admin/productos/guardar', 4000)).toEqual({ status: 200, body: '{"bytes":4000}' })
})

test('a chunked body past the limit is answered 413 and the app never gets it whole', async () => {
  seen.length = 0
  expect(await postChunked('/pedido', 5000)).toEqual({ status: 413, body: BODY_TOO_LARGE_MESSAGE })
  // The admin area allows more, but not unlimited.
  expect(await postChunked('/admin/productos/guardar', 4000)).toMatchObject({ status: 200 })
  expect(await postChunked('/admin/productos/guardar', 20_000)).toEqual({
    status: 413,
    body: BODY_TOO_LARGE_MESSAGE,
  })
  await new Promise((resolve) => setTimeout(resolve, 50))
  for (const entry of seen) if (entry.bytes !== 4000) expect(entry.bytes).toMatch(/^error/)
})

test('a declared Content-Length past the limit is refused before reading', async () => {
  const response = await fetch(`http://127.0.0.1:${port}/pedido`, { method: 'POST', body: 'x'.repeat(2000) })
  expect(response.status).toBe(413)
  expect(await response.text()).toBe(BODY_TOO_LARGE_MESSAGE)
})

test('a transfer receipt may be bigger, only as a multipart post to the two pages that take one', async () => {
  const post = (path: string, type = 'multipart/form-data; boundary=x') =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': type },
      body: 'x'.repeat(2000),
    })
  for (const path of [
    '/finalizar-pedido/success?pedido=1',
    '/finalizar-pedido/success.data',
    '/pedido/1001',
    '/pedido/1001.data',
  ])
    expect((await post(path)).status, path).toBe(200)
  expect((await post('/pedido/1001', 'application/x-www-form-urlencoded')).status).toBe(413)
  for (const path of ['/carrito', '/finalizar-pedido', '/pedido/1001/factura', '/pedido'])
    expect((await post(path)).status, path).toBe(413)
})

test('HSTS in production and for an https PUBLIC_URL, not for plain or loopback http', async () => {
  const env = (vars: Record<string, string>) => parseEnv(vars)
  expect(sendsHsts(env({}))).toBe(false)
  expect(sendsHsts(env({ PUBLIC_URL: 'https://localhost:3443' }))).toBe(false)
  expect(sendsHsts(env({ PUBLIC_URL: 'https://tienda.example.co' }))).toBe(true)
  expect(sendsHsts({ APP_ENV: 'production', publicUrl: 'http://127.0.0.1:3000' })).toBe(true)
  const headers = new Map<string, string>()
  securityHeaders(env({ PUBLIC_URL: 'https://tienda.example.co' }))(
    {} as never,
    { locals: {}, setHeader: (name: string, value: string) => headers.set(name, value) } as never,
    () => {},
  )
  expect(headers.get('Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains')
})
