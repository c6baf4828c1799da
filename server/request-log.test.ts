import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createLogger } from '#app/utils/logger.server.ts'
import { requestLogging } from './request-log.ts'

const lines: Record<string, unknown>[] = []
const log = createLogger({
  level: 'info',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      done()
    },
  }),
})
let server: http.Server
let base = ''

beforeAll(async () => {
  const app = express()
  app.use(requestLogging(log))
  app.get('/healthz', (_req, res) => void res.send('ok'))
  app.get('/producto/:sku', async (_req, res) => {
    // A line logged deep inside the request, after an await, still names it.
    await new Promise((resolve) => setTimeout(resolve, 5))
    log.warn('dentro de la solicitud')
    res.send('ok')
  })
  app.get('/falla', (_req, res) => void res.status(500).send('mal'))
  server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const settled = () => new Promise((resolve) => setTimeout(resolve, 20))

test('every line of a request carries its id, also sent back as X-Request-Id', async () => {
  lines.length = 0
  const response = await fetch(`${base}/producto/ABC-1?q=ana%40correo.co`, {
    headers: { Cookie: 'vitrina_consent=x', 'User-Agent': 'prueba' },
  })
  await settled()
  const id = response.headers.get('x-request-id')
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  const inner = lines.find((line) => line.msg === 'dentro de la solicitud')
  const done = lines.find((line) => line.msg === 'request completed')
  expect(inner).toMatchObject({ reqId: id, level: 40 })
  expect(done).toMatchObject({ reqId: id, level: 30, req: { method: 'GET', path: '/producto/ABC-1' } })
  expect(done).toMatchObject({ res: { statusCode: 200 } })
  expect(typeof done?.responseTime).toBe('number')
  // No query string, address, cookie or user agent: nothing about the shopper beyond the path.
  const text = JSON.stringify(lines)
  for (const personal of ['ana', 'correo', '127.0.0.1', 'vitrina_consent', 'prueba']) {
    expect(text).not.toContain(personal)
  }
})

test("a proxy's request id is kept; a malformed one is replaced", async () => {
  const kept = await fetch(`${base}/producto/X`, { headers: { 'X-Request-Id': 'lb-1234.abc' } })
  expect(kept.headers.get('x-request-id')).toBe('lb-1234.abc')
  const replaced = await fetch(`${base}/producto/X`, { headers: { 'X-Request-Id': 'a b<script>' } })
  expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
})

test('server errors are logged as errors; health checks are not logged', async () => {
  lines.length = 0
  await fetch(`${base}/falla`)
  await fetch(`${base}/healthz`)
  await settled()
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatchObject({ level: 50, req: { path: '/falla' }, res: { statusCode: 500 } })
})
