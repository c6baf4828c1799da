import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import type { ServerBuild } from 'react-router'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { createLogger } from '#app/utils/logger.server.ts'
import { rawRequest } from '#tests/http.ts'
import { refuseBadUrl } from './app.ts'
import { requestLogging } from './request-log.ts'
import {
  answerOtherMethods,
  appRequestUrl,
  BAD_HOST_MESSAGE,
  CROSS_SITE_MESSAGE,
  METHOD_NOT_ALLOWED_MESSAGE,
  MISADDRESSED_WRITE_MESSAGE,
  refuseCrossSiteWrites,
  refuseMisaddressedWrites,
  refuseUnaddressable,
} from './security.ts'

/**
 * Odd requests (issue 23) through the guards of server/app.ts, in its order, in front of the real
 * React Router adapter: what the shop answers them, and what the log gets.
 */

const PUBLIC_URL = 'https://tienda.example.co'

/** The smallest build React Router serves: a page with a loader and an action, and a resource route. */
const build = {
  entry: {
    module: {
      default: (_request: Request, status: number, headers: Headers) =>
        new Response('página', { status, headers }),
    },
  },
  routes: {
    root: {
      id: 'root',
      path: '',
      module: { default: () => null, loader: () => ({ ok: true }), action: () => ({ saved: true }) },
    },
    api: {
      id: 'api',
      parentId: 'root',
      path: 'api/carrito',
      module: { loader: () => Response.json({ read: true }), action: () => Response.json({ posted: true }) },
    },
  },
  assets: { routes: {}, version: '1', url: '/m.js', entry: { module: '/e.js', imports: [] } },
  future: {},
  publicPath: '/',
  assetsBuildDirectory: 'build/client',
  basename: '/',
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: 'initial', manifestPath: '/__manifest' },
} as unknown as ServerBuild

type Line = { level: number; msg?: string; err?: unknown; res?: { statusCode: number } }

/**
 * Not server/app.ts itself (that needs the database and the built app) but a copy of the part of its
 * chain these requests meet, in the same order: request log, bad URLs, other methods, cross-site and
 * misaddressed writes, unaddressable hosts, then the real adapter on the small build above (no host
 * redirects, security headers, body limit or action-only routes). Logs into `lines`.
 */
async function startApp(trustProxy: string | false) {
  const lines: Line[] = []
  const log = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line))
        done()
      },
    }),
  })
  const app = express()
  app.set('trust proxy', trustProxy)
  app.use(requestLogging(log))
  app.use(refuseBadUrl())
  app.use(answerOtherMethods())
  app.use(refuseCrossSiteWrites(parseEnv({ PUBLIC_URL })))
  app.use(refuseMisaddressedWrites(parseEnv({ PUBLIC_URL }), log))
  app.use(refuseUnaddressable())
  app.all('/{*splat}', createRequestHandler({ build, mode: 'production' }))
  const server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    lines,
    port,
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

let shop: Awaited<ReturnType<typeof startApp>>
// React Router prints the errors it handles with console.error (no handleError in the entry).
const printed = vi.spyOn(console, 'error')

beforeAll(async () => {
  // As in production (server/index.js): a proxy on this machine or the LAN is trusted.
  shop = await startApp('loopback, linklocal, uniquelocal')
})
afterAll(() => shop.close())
afterEach(() => {
  // Whatever a test sent, nothing was logged as an error and no stack trace was printed.
  expect(shop.lines.filter((line) => line.level >= 50)).toEqual([])
  expect(printed).not.toHaveBeenCalled()
})

type Answer = { status: number; type: string; allow: string | undefined; body: string }

function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
  port = shop.port,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          type: response.headers['content-type'] ?? '',
          allow: response.headers.allow,
          body: text,
        }),
      )
    })
    request.on('error', reject)
    if (body !== undefined) request.write(body)
    request.end()
  })
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 30))

describe('methods the shop does not serve get a Spanish 405 before the app sees them', () => {
  test.each(['TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'PURGE', 'SEARCH', 'PUT', 'PATCH', 'DELETE'])(
    '%s',
    async (method) => {
      const page = await send(method, '/', { Origin: PUBLIC_URL })
      expect(page).toMatchObject({ status: 405, allow: 'GET, HEAD, POST' })
      expect(page.type).toMatch(/^text\/html/)
      expect(page.body).toContain(METHOD_NOT_ALLOWED_MESSAGE)
      const api = await send(method, '/api/carrito')
      expect(api.status).toBe(405)
      expect(JSON.parse(api.body)).toEqual({ ok: false, message: METHOD_NOT_ALLOWED_MESSAGE })
      await settled()
    },
  )

  test('OPTIONS says what is allowed, with no body and no route run', async () => {
    for (const path of ['/', '/api/carrito', '*']) {
      expect(await send('OPTIONS', path)).toMatchObject({ status: 204, allow: 'GET, HEAD, POST', body: '' })
    }
    await settled()
  })

  test('GET, HEAD and POST still reach the app', async () => {
    expect(await send('GET', '/')).toMatchObject({ status: 200, body: 'página' })
    expect(await send('HEAD', '/')).toMatchObject({ status: 200, body: '' })
    expect(await send('POST', '/', { Origin: shop.base }, 'a=1')).toMatchObject({ status: 200 })
    expect(JSON.parse((await send('GET', '/api/carrito')).body)).toEqual({ read: true })
    await settled()
  })

  test('what Node refuses itself (unknown methods, CONNECT) never reaches the app nor the log', async () => {
    const before = shop.lines.length
    // Its HTTP parser does not know TRACK or FOO: a bare 400 from Node, before Express.
    for (const method of ['TRACK', 'FOO']) expect((await send(method, '/')).status).toBe(400)
    // CONNECT (a proxy's method) without a 'connect' listener: Node closes the connection.
    await expect(send('CONNECT', '127.0.0.1:443')).rejects.toThrow()
    await settled()
    expect(shop.lines.slice(before)).toEqual([])
  })
})

describe('a request the app could not build an address for is a Spanish 400', () => {
  test.each(['a b', 'x:99999', '%', '[::1'])('Host: %s', async (host) => {
    const answer = await send('GET', '/', { Host: host })
    expect(answer.status).toBe(400)
    expect(answer.body).toContain(BAD_HOST_MESSAGE)
    await settled()
  })

  test('an absolute-form request target, under /api/ in JSON', async () => {
    expect((await send('GET', 'http://otro.example/')).body).toContain(BAD_HOST_MESSAGE)
    const api = await send('GET', `http://127.0.0.1:${shop.port}/api/carrito`)
    expect(api.status).toBe(400)
    expect(JSON.parse(api.body)).toEqual({ ok: false, message: BAD_HOST_MESSAGE })
    await settled()
  })
})

describe('a post from the shop’s own page that reaches the app under another address', () => {
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' }
  /** A process of its own (the warnings are once per process), behind a proxy on this machine. */
  let proxied: Awaited<ReturnType<typeof startApp>>
  beforeEach(async () => {
    proxied = await startApp('loopback, linklocal, uniquelocal')
  })
  afterEach(async () => {
    expect(proxied.lines.filter((line) => line.level >= 50)).toEqual([])
    await proxied.close()
  })
  const post = (path: string, headers: Record<string, string>) =>
    send('POST', path, { ...form, ...headers }, 'a=1', proxied.port)
  const warnings = () => proxied.lines.filter((line) => line.level === 40).map((line) => line.msg ?? '')

  test('a TLS proxy without X-Forwarded-Proto: every form refused in Spanish, one warning naming it', async () => {
    const headers = { Host: 'tienda.example.co', Origin: PUBLIC_URL }
    for (const path of ['/', '/_root.data', '/api/carrito', '/', '/']) {
      const answer = await post(path, headers)
      expect(answer.status, path).toBe(400)
      if (path.startsWith('/api/')) {
        expect(JSON.parse(answer.body)).toEqual({ ok: false, message: MISADDRESSED_WRITE_MESSAGE })
      } else {
        expect(answer.type).toMatch(/^text\/html/)
        expect(answer.body).toContain(MISADDRESSED_WRITE_MESSAGE)
      }
    }
    await settled()
    expect(warnings()).toEqual([
      expect.stringContaining(
        'el navegador los envía desde https://tienda.example.co y la tienda recibe la solicitud como ' +
          'http://tienda.example.co, porque el proxy no envía "X-Forwarded-Proto: https"',
      ),
    ])
  })

  test('a proxy that rewrites Host (Origin is PUBLIC_URL): a Spanish 400, the owner told once', async () => {
    const headers = { Origin: PUBLIC_URL, 'X-Forwarded-Proto': 'https' }
    for (let i = 0; i < 3; i++) {
      const answer = await post('/', headers)
      expect(answer.status).toBe(400)
      expect(answer.body).toContain(MISADDRESSED_WRITE_MESSAGE)
    }
    await settled()
    expect(warnings()).toEqual([
      expect.stringContaining(
        `recibe la solicitud como https://127.0.0.1:${proxied.port}, porque el proxy no conserva el ` +
          'encabezado Host (tienda.example.co) ni envía X-Forwarded-Host',
      ),
    ])
    // Another cause later is told too, once.
    await post('/', { Host: 'tienda.example.co', Origin: PUBLIC_URL })
    await post('/', { Host: 'tienda.example.co', Origin: PUBLIC_URL })
    await settled()
    expect(warnings()).toHaveLength(2)
    expect(warnings()[1]).toContain('X-Forwarded-Proto')
  })

  test('once the proxy says how it was reached, the same post is the app’s again', async () => {
    const headers = { Host: 'tienda.example.co', Origin: PUBLIC_URL, 'X-Forwarded-Proto': 'https' }
    expect(await post('/', headers)).toMatchObject({ status: 200, body: 'página' })
    expect(JSON.parse((await post('/api/carrito', headers)).body)).toEqual({ posted: true })
    // Reads were never refused.
    expect((await send('GET', '/', { Host: 'tienda.example.co' }, undefined, proxied.port)).status).toBe(200)
    await settled()
    expect(warnings()).toEqual([])
  })

  test('another site is still the cross-site refusal (403); a post without Origin is left to the routes', async () => {
    const cross = await post('/', { Origin: 'https://otro.example' })
    expect(cross.status).toBe(403)
    expect(cross.body).toContain(CROSS_SITE_MESSAGE)
    expect((await post('/api/carrito', {})).status).toBe(200)
    await settled()
    expect(warnings()).toEqual([])
  })
})

describe('a client that makes up its own Host (no proxy in between)', () => {
  test('is refused without using up the warning a real proxy problem needs later', async () => {
    // The shop trusts no proxy here, so the test client (127.0.0.1) is a direct one.
    const direct = await startApp(false)
    try {
      const forged = { Host: 'inventado.example', Origin: PUBLIC_URL }
      for (let i = 0; i < 3; i++) {
        const answer = await send('POST', '/', forged, 'a=1', direct.port)
        expect(answer.status).toBe(400)
        expect(answer.body).toContain(MISADDRESSED_WRITE_MESSAGE)
      }
      await settled()
      const warnings = () => direct.lines.filter((line) => line.level === 40).map((line) => line.msg)
      expect(warnings()).toEqual([])
      // Later a TLS proxy that keeps Host but says nothing of https: still told, once.
      for (let i = 0; i < 2; i++) {
        await send('POST', '/', { Host: 'tienda.example.co', Origin: PUBLIC_URL }, 'a=1', direct.port)
      }
      await settled()
      expect(warnings()).toEqual([expect.stringContaining('el proxy no envía "X-Forwarded-Proto: https"')])
    } finally {
      await direct.close()
    }
  })

  test('through a trusted proxy address the same post is the proxy’s problem, told once', async () => {
    const proxied = await startApp('loopback')
    try {
      for (let i = 0; i < 2; i++) {
        await send('POST', '/', { Host: 'inventado.example', Origin: PUBLIC_URL }, 'a=1', proxied.port)
      }
      await settled()
      const told = proxied.lines.filter((line) => line.level === 40).map((line) => line.msg)
      expect(told).toEqual([
        expect.stringContaining('X-Forwarded-Proto'),
        expect.stringContaining('ni envía X-Forwarded-Host'),
      ])
    } finally {
      await proxied.close()
    }
  })
})

describe('appRequestUrl is the URL @react-router/express gives the app', () => {
  /** A build whose one resource route records the URL of the Request the adapter built. */
  function recordingApp(trustProxy: string | false) {
    const seen: { adapter?: string; ours?: string | null } = {}
    const recorder = {
      ...build,
      routes: {
        root: { id: 'root', path: '', module: { default: () => null } },
        api: {
          id: 'api',
          parentId: 'root',
          path: 'api/eco',
          module: {
            action: ({ request }: { request: Request }) => {
              seen.adapter = request.url
              return Response.json({ ok: true })
            },
          },
        },
      },
    } as unknown as ServerBuild
    const app = express()
    app.set('trust proxy', trustProxy)
    app.use((req, _res, next) => {
      seen.ours = appRequestUrl(req)?.href ?? null
      next()
    })
    app.all('/{*splat}', createRequestHandler({ build: recorder, mode: 'production' }))
    return { app, seen }
  }

  const cases: { trust: string | false; headers: Record<string, string> }[] = [
    { trust: false, headers: { Host: 'tienda.example.co' } },
    { trust: false, headers: { Host: 'tienda.example.co:8080' } },
    { trust: false, headers: { Host: 'tienda.example.co', 'X-Forwarded-Proto': 'https' } },
    { trust: false, headers: { Host: 'interno', 'X-Forwarded-Host': 'tienda.example.co:8443' } },
    { trust: 'loopback', headers: { Host: 'interno:3000', 'X-Forwarded-Proto': 'https' } },
    {
      trust: 'loopback',
      headers: {
        Host: 'interno:3000',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'tienda.example.co',
      },
    },
    {
      trust: 'loopback',
      headers: {
        Host: 'interno',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'tienda.example.co:8443',
      },
    },
    {
      trust: 'loopback',
      headers: {
        Host: 'interno',
        'X-Forwarded-Proto': 'https, http',
        'X-Forwarded-Host': 'a.example, b.example',
      },
    },
    { trust: 'uniquelocal', headers: { Host: 'interno:3000', 'X-Forwarded-Host': 'tienda.example.co' } },
    { trust: 'loopback', headers: { Host: 'TIENDA.example.co' } },
  ]

  test.each(cases)('trust proxy $trust, $headers', async ({ trust, headers }) => {
    const { app, seen } = recordingApp(trust)
    const server = http.createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as AddressInfo).port
      const answer = await rawRequest({
        host: '127.0.0.1',
        port,
        path: '/api/eco?x=1',
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
      })
      expect(answer.status).toBe(200)
      expect(seen.adapter).toBeDefined()
      expect(seen.ours).toBe(seen.adapter)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

test('a trusted proxy that forwards the wrong value is named with it', async () => {
  const proxied = await startApp('loopback')
  try {
    const headers = {
      Host: 'interno:3000',
      Origin: PUBLIC_URL,
      'X-Forwarded-Proto': 'http',
      'X-Forwarded-Host': 'otra.example.co',
    }
    expect((await send('POST', '/', headers, 'a=1', proxied.port)).status).toBe(400)
    await settled()
    const told = proxied.lines.filter((line) => line.level === 40).map((line) => line.msg)
    expect(told).toEqual([
      expect.stringContaining('porque el proxy envía "X-Forwarded-Proto: http" y el navegador usa https'),
      expect.stringContaining(
        'porque el proxy envía "X-Forwarded-Host: otra.example.co" y el navegador usa tienda.example.co',
      ),
    ])
  } finally {
    await proxied.close()
  }
})

test('a proxy whose X-Forwarded-Proto the shop does not trust is named as such', async () => {
  const untrusting = await startApp(false)
  try {
    const answer = await rawRequest({
      host: '127.0.0.1',
      port: untrusting.port,
      path: '/',
      method: 'POST',
      headers: { Host: 'tienda.example.co', Origin: PUBLIC_URL, 'X-Forwarded-Proto': 'https' },
    })
    expect(answer.status).toBe(400)
    await settled()
    const told = untrusting.lines.filter((line) => line.level === 40).map((line) => line.msg)
    expect(told).toEqual([
      expect.stringContaining(
        'porque el proxy envía X-Forwarded-Proto, pero llega desde una dirección que no es de confianza',
      ),
    ])
  } finally {
    await untrusting.close()
  }
})
