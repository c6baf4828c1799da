import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import express from 'express'
import type { ServerBuild } from 'react-router'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import {
  ACTION_ONLY_MESSAGE,
  actionOnlyPaths,
  answerActionOnlyRoutes,
  CROSS_SITE_MESSAGE,
  MEDIA_NOT_FOUND_MESSAGE,
  mediaErrors,
  refuseCrossSiteWrites,
} from './security.ts'

/** The guards of server/security.ts in front of an app that answers 200 to whatever reaches it. */

const PUBLIC_URL = 'https://tienda.example.co'
const mediaRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-media-'))
fs.writeFileSync(path.join(mediaRoot, 'foto.webp'), 'imagen')

/** A build's route table as React Router hands it over (only what the guard reads). */
const routes = {
  root: { id: 'root', path: '', module: { default: () => null } },
  admin: {
    id: 'admin',
    parentId: 'root',
    path: 'admin',
    module: { loader: () => null, default: () => null },
  },
  save: { id: 'save', parentId: 'admin', path: 'productos/guardar', module: { action: () => null } },
  click: { id: 'click', parentId: 'root', path: 'api/analitica/clic', module: { action: () => null } },
  page: {
    id: 'page',
    parentId: 'root',
    path: 'carrito',
    module: { action: () => null, default: () => null },
  },
} as unknown as ServerBuild['routes']

let server: http.Server
let base = ''

beforeAll(async () => {
  const app = express()
  app.use(refuseCrossSiteWrites(parseEnv({ PUBLIC_URL })))
  app.use(answerActionOnlyRoutes({ routes } as ServerBuild))
  app.use('/media', express.static(mediaRoot, { fallthrough: false, index: false }), mediaErrors())
  app.all('/{*splat}', (req, res) => {
    res.json({ reached: req.originalUrl })
  })
  server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  fs.rmSync(mediaRoot, { recursive: true, force: true })
})

const post = (pathname: string, headers: Record<string, string>, method = 'POST') =>
  fetch(`${base}${pathname}`, { method, headers, body: 'a=1' })

describe('a state-changing request from another site is refused before any route reads it', () => {
  test('a cross-site Origin, or Sec-Fetch-Site: cross-site, is a Spanish 403, for every method', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const answer = await post('/finalizar-pedido', { Origin: 'https://otro.example' }, method)
      expect(answer.status).toBe(403)
      expect(answer.headers.get('content-type')).toMatch(/text\/html/)
      expect(await answer.text()).toContain(CROSS_SITE_MESSAGE)
    }
    const fetched = await post('/finalizar-pedido', { 'Sec-Fetch-Site': 'cross-site' })
    expect(fetched.status).toBe(403)
    // A sandboxed frame or a post after a cross-site redirect says `null`.
    expect((await post('/finalizar-pedido', { Origin: 'null' })).status).toBe(403)
    // A same-site neighbour (another subdomain) is not the shop either.
    expect((await post('/finalizar-pedido', { Origin: 'https://otra.example.co' })).status).toBe(403)
  })

  test('under /api/ the refusal is JSON', async () => {
    const answer = await post('/api/carrito', { Origin: 'https://otro.example' })
    expect(answer.status).toBe(403)
    expect(await answer.json()).toEqual({ ok: false, message: CROSS_SITE_MESSAGE })
  })

  test('the shop’s own pages (PUBLIC_URL or the address asked) go on', async () => {
    for (const headers of <Record<string, string>[]>[
      { Origin: PUBLIC_URL, 'Sec-Fetch-Site': 'same-origin' },
      { Origin: base, 'Sec-Fetch-Site': 'same-origin' },
      { Origin: PUBLIC_URL.toUpperCase() },
      { 'Sec-Fetch-Site': 'same-site' },
      // A client without either header (a script, curl) is left to the routes' own checks.
      {},
    ]) {
      const answer = await post('/finalizar-pedido', headers)
      expect(answer.status).toBe(200)
      expect(await answer.json()).toEqual({ reached: '/finalizar-pedido' })
    }
  })

  test('reads are never refused, and the Mercado Pago webhook takes posts from anywhere', async () => {
    const read = await fetch(`${base}/carrito`, { headers: { 'Sec-Fetch-Site': 'cross-site' } })
    expect(read.status).toBe(200)
    const webhook = await post('/api/webhooks/mercadopago?type=payment', {
      Origin: 'https://www.mercadopago.com.co',
      'Sec-Fetch-Site': 'cross-site',
    })
    expect(webhook.status).toBe(200)
  })
})

describe('a GET of a route that only takes posts is a Spanish 405', () => {
  test('the action-only routes are found with their full paths', () => {
    expect(actionOnlyPaths(routes).sort()).toEqual(['/admin/productos/guardar', '/api/analitica/clic'])
  })

  test('a page for a browser, JSON under /api/, with Allow: POST; posts and pages go on', async () => {
    const page = await fetch(`${base}/admin/productos/guardar`)
    expect(page.status).toBe(405)
    expect(page.headers.get('allow')).toBe('POST')
    expect(await page.text()).toContain(ACTION_ONLY_MESSAGE)
    expect((await fetch(`${base}/Admin/Productos/Guardar/`)).status).toBe(405)
    const api = await fetch(`${base}/api/analitica/clic`)
    expect(api.status).toBe(405)
    expect(await api.json()).toEqual({ ok: false, message: ACTION_ONLY_MESSAGE })
    expect((await fetch(`${base}/api/analitica/clic`, { method: 'HEAD' })).status).toBe(405)
    expect((await post('/admin/productos/guardar', {})).status).toBe(200)
    expect((await fetch(`${base}/carrito`)).status).toBe(200)
  })
})

test('a missing media file is a Spanish 404, not Express’s English page; a present one is served', async () => {
  for (const missing of ['/media/no-existe.webp', '/media/', '/media/..%2fsecreto']) {
    const answer = await fetch(`${base}${missing}`)
    expect(answer.status).toBe(404)
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await answer.text()).toBe(MEDIA_NOT_FOUND_MESSAGE)
  }
  const found = await fetch(`${base}/media/foto.webp`)
  expect(found.status).toBe(200)
  expect(await found.text()).toBe('imagen')
})
