import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type net from 'node:net'
import path from 'node:path'
import { LOCAL_ADMIN_EMAIL } from '#app/modules/auth/config.server.ts'
import { authorizeAtProvider, CookieJar } from '#tests/auth.ts'
import { buildIfStale } from '../../scripts/build-if-stale.js'
import { freePort } from '../free-port.ts'

/** The reliability tests' own build, so they never rewrite one a running server or test uses. */
export const RELIABILITY_BUILD_DIR = '.build/reliability'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Builds the app into RELIABILITY_BUILD_DIR when stale. Test files run in parallel, so they take
 * turns behind a lock directory (one left by a killed run is taken over after ten minutes).
 */
export async function ensureBuild() {
  const lock = `${RELIABILITY_BUILD_DIR}.lock`
  fs.mkdirSync(path.dirname(lock), { recursive: true })
  for (;;) {
    try {
      fs.mkdirSync(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const age = Date.now() - fs.statSync(lock, { throwIfNoEntry: false })!.mtimeMs
      if (age > 10 * 60_000) fs.rmSync(lock, { recursive: true, force: true })
      else await sleep(500)
    }
  }
  try {
    buildIfStale(RELIABILITY_BUILD_DIR, { quiet: true })
  } finally {
    fs.rmSync(lock, { recursive: true, force: true })
  }
}

export { freePort }

/**
 * Loose enough that only stock limits the tests' checkouts: every client is 127.0.0.1 here (the hold
 * and request limits have their own tests).
 */
export const LOOSE_LIMITS_ENV = {
  RATE_LIMIT_SCALE: '1000',
  COD_MAX_OPEN_ORDERS: '100000',
  COD_MAX_OPEN_UNITS: '1000000',
  COD_MAX_OPEN_ORDERS_PER_ADDRESS: '100000',
  COD_MAX_OPEN_UNITS_PER_ADDRESS: '1000000',
}

export type ShopProcess = {
  base: string
  pid: number
  /** Everything the process printed (JSON log lines). */
  output(): string
  /** SIGKILL: no shutdown code runs, as in a power cut or the OOM killer. */
  kill(): Promise<void>
  /** SIGTERM, and the graceful shutdown. */
  stop(): Promise<void>
}

/**
 * `node server/index.js` from the reliability build in production mode, one web process, on `port`
 * (a free one when omitted), started the way the e2e setup and `npm run bench` start it. `env` adds
 * to (or, with `undefined`, removes from) the variables it gets; resolves once /healthz answers.
 */
export async function startShop(
  env: Record<string, string | undefined>,
  options: { port?: number } = {},
): Promise<ShopProcess> {
  const port = options.port ?? (await freePort())
  const base = `http://127.0.0.1:${port}`
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: undefined,
    TEST_DATABASE_URL: undefined,
    NODE_ENV: 'production',
    VITRINA_BUILD_DIR: RELIABILITY_BUILD_DIR,
    APP_ENV: 'local',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: base,
    SEED_DEMO: '0',
    WEB_CONCURRENCY: '1',
    ...LOOSE_LIMITS_ENV,
    ...env,
  }
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key]
  const child = spawn(process.execPath, ['server/index.js'], {
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name)
    await exited
  }
  const shop: ShopProcess = {
    base,
    pid: child.pid!,
    output: () => output,
    kill: () => signal('SIGKILL'),
    async stop() {
      const cut = setTimeout(() => child.kill('SIGKILL'), 30_000)
      await signal('SIGTERM')
      clearTimeout(cut)
    },
  }
  // A bound for a start-up that hangs, so no server outlives the test (a first start on PGlite with
  // migrations takes a few seconds).
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`La tienda terminó al arrancar:\n${output}`)
    }
    if (Date.now() > deadline) {
      await shop.kill()
      throw new Error(`La tienda no respondió a tiempo:\n${output}`)
    }
    try {
      if ((await fetch(`${base}/healthz`)).ok) return shop
    } catch {
      // not listening yet
    }
    await sleep(200)
  }
}

export type CheckoutAnswer = {
  status: number
  /** The order id of a placed order (the success page's `?pedido=`, or the Wompi link's reference). */
  orderId: string | null
  /** Where the shopper is sent: the success page, or the payment provider's page. */
  location: string | null
  body: string
}

/** Customers' phones: valid Colombian mobile numbers, one per index. */
export const phoneFor = (index: number) => `310${String(1_000_000 + index).padStart(7, '0')}`

/**
 * "Confirmar pedido" as the form posts it (cash on delivery, a fresh form key), through `base`;
 * `forwardedFor` plays the shopper's address behind the shop's proxy.
 */
export async function postCheckout(
  base: string,
  order: {
    lines: { sku: string; quantity: number }[]
    phone: string
    forwardedFor?: string
    paymentMethod?: 'acordar' | 'wompi'
  },
): Promise<CheckoutAnswer> {
  const body = new URLSearchParams({
    cart: JSON.stringify(order.lines),
    name: 'Cliente',
    last_name: 'Confiable',
    phone: order.phone,
    address: 'Calle 10 # 20-30',
    city: 'Medellín',
    department: 'Antioquia',
    municipality_code: '05001',
    payment_method: order.paymentMethod ?? 'acordar',
    consent: 'on',
    checkout_key: randomUUID(),
  })
  const response = await fetch(`${base}/finalizar-pedido`, {
    method: 'POST',
    body,
    redirect: 'manual',
    headers: {
      Origin: base,
      ...(order.forwardedFor ? { 'X-Forwarded-For': order.forwardedFor } : {}),
    },
  })
  const location = response.headers.get('Location')
  const query = location ? new URL(location, base).searchParams : null
  const orderId = query?.get('pedido') ?? query?.get('reference') ?? null
  return { status: response.status, orderId, location, body: await response.text() }
}

export type AdminSession = { cookie: string; csrfToken: string }

/**
 * Signs in as the local admin through HTTP alone: "Iniciar sesión con Google" at `base`, the bundled
 * provider's page, the callback; then reads the anti-forgery token an admin page carries.
 */
export async function signInOverHttp(base: string): Promise<AdminSession> {
  const shop = new CookieJar()
  const begin = await fetch(`${base}/login-admin`, {
    method: 'POST',
    body: new URLSearchParams(),
    redirect: 'manual',
    headers: { Origin: base },
  })
  shop.store(begin)
  const authorization = begin.headers.get('Location')
  if (begin.status !== 302 || !authorization) {
    throw new Error(`El inicio de sesión respondió ${begin.status}: ${await begin.text()}`)
  }
  const callback = await authorizeAtProvider(new URL(authorization, base).href, {
    email: LOCAL_ADMIN_EMAIL,
    name: 'Dueña Confiable',
  })
  const done = await fetch(callback, { redirect: 'manual', headers: { Cookie: shop.header() } })
  shop.store(done)
  if (done.status !== 302 || done.headers.get('Location') !== '/admin') {
    throw new Error(`La vuelta del proveedor respondió ${done.status} → ${done.headers.get('Location')}`)
  }
  const cookie = shop.header()
  return { cookie, csrfToken: await csrfTokenAt(base, cookie) }
}

/** The anti-forgery token of the session behind `cookie`, as an admin page at `base` renders it. */
export async function csrfTokenAt(base: string, cookie: string): Promise<string> {
  const page = await fetch(`${base}/admin/productos/entrada`, {
    redirect: 'manual',
    headers: { Cookie: cookie },
  })
  const token = (await page.text()).match(/name="csrf" value="([^"]+)"/)?.[1]
  if (page.status !== 200 || !token)
    throw new Error(`La página de entradas respondió ${page.status} sin token`)
  return token
}

/** An admin form post (document request, as a browser without JavaScript sends it). */
export async function postAdminForm(
  base: string,
  session: AdminSession,
  pathname: string,
  fields: Record<string, string>,
) {
  const response = await fetch(`${base}${pathname}`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    redirect: 'manual',
    headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrfToken, Origin: base },
  })
  return { status: response.status, body: await response.text() }
}

/**
 * A round-robin balancer in front of the shop's instances, as a load balancer deployment has: each
 * request goes to the next instance (the client's address travels in X-Forwarded-For).
 */
export async function startBalancer(targets: string[]) {
  let turn = 0
  const server = http.createServer((request, response) => {
    const target = new URL(targets[turn++ % targets.length]!)
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode!, answer.headers)
        answer.pipe(response)
      },
    )
    upstream.on('error', () => {
      response.writeHead(502).end()
    })
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
  return {
    base,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
