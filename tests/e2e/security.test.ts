import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { openDatabase } from '#app/db/client.server.ts'
import { authConfigFromEnv } from '#app/modules/auth/config.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { signedInAs } from '#tests/auth.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { baseURL } from './browser.ts'
import { FAKE_SECRETS as SECRETS } from './fake-secrets.ts'
import { freePort, waitForHealth } from './global-setup.ts'

/** The running store's answers around the routes: headers on static files, Spanish refusals. */

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
}

test('static files (scripts, favicon, link-preview image) carry the pages’ security headers', async () => {
  const home = await fetch(baseURL())
  expect(home.status).toBe(200)
  const html = await home.text()
  // The page names its scripts in its route script (they load after the page, see defer-scripts).
  const assets = [...html.matchAll(/"(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!)
  expect(assets.length).toBeGreaterThan(0)
  for (const file of [...new Set(assets)].slice(0, 5).concat('/favicon.svg', '/og-image.jpg')) {
    const answer = await fetch(`${baseURL()}${file}`)
    expect(answer.status, file).toBe(200)
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(answer.headers.get(name), `${file} ${name}`).toBe(value)
  }
})

test('a missing media file is a Spanish 404 with the security headers', async () => {
  const answer = await fetch(`${baseURL()}/media/no-existe.webp`)
  expect(answer.status).toBe(404)
  expect(await answer.text()).toBe('Ese archivo no existe o ya no está disponible.')
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
})

test('a GET of a route that only takes posts is a Spanish 405, not "Unexpected Server Error"', async () => {
  const page = await fetch(`${baseURL()}/admin/productos/guardar`, { redirect: 'manual' })
  expect(page.status).toBe(405)
  const text = await page.text()
  expect(text).toContain('Esta dirección solo recibe envíos de formularios de la tienda')
  expect(text).not.toContain('Unexpected Server Error')
  const api = await fetch(`${baseURL()}/api/analitica/clic`)
  expect(api.status).toBe(405)
  expect((await api.json()).message).toContain('solo recibe envíos')
})

describe('state-changing requests from another site', () => {
  const post = (pathname: string, headers: Record<string, string>) =>
    fetch(`${baseURL()}${pathname}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: 'name=Ana',
    })

  test('a cross-site checkout post is a Spanish 403 and makes no order', async () => {
    const answer = await post('/finalizar-pedido', {
      Origin: 'https://otro.example',
      'Sec-Fetch-Site': 'cross-site',
    })
    expect(answer.status).toBe(403)
    expect(await answer.text()).toContain('No aceptamos este envío porque viene de otro sitio')
  })

  test('the same post from the shop’s own page reaches the checkout (its own Spanish answer)', async () => {
    const answer = await post('/finalizar-pedido', { Origin: baseURL(), 'Sec-Fetch-Site': 'same-origin' })
    expect(answer.status).not.toBe(403)
    expect(answer.status).toBeLessThan(500)
  })

  test('the Mercado Pago webhook is not held back by the check (its signature decides)', async () => {
    const answer = await post('/api/webhooks/mercadopago?type=payment&data.id=1', {
      Origin: 'https://www.mercadopago.com.co',
      'Sec-Fetch-Site': 'cross-site',
    })
    expect(answer.status).not.toBe(403)
  })
})

describe('no configured secret reaches a browser', () => {
  const buildDir = inject('buildDir')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-secretos-'))
  let child: ChildProcess
  let base = ''
  let adminCookie = ''
  const facts = { sku: '', categoryId: '' }

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    // Nothing listens on port 9 (discard): outside services fail at once if anything calls them.
    const nowhere = 'http://127.0.0.1:9'
    const env: Record<string, string> = {
      ...SECRETS,
      NODE_ENV: 'production',
      APP_ENV: 'local',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      PUBLIC_URL: base,
      ADMIN_EMAILS: 'duena@vitrina.test',
      OIDC_ISSUER: `${nowhere}/oidc`,
      GOOGLE_CLIENT_ID: 'cliente-google',
      MP_API_URL: nowhere,
      WHATSAPP_PHONE_NUMBER_ID: '1065403522',
      WHATSAPP_API_URL: nowhere,
      META_PIXEL_ID: '1234567890',
      META_API_URL: nowhere,
      ML_CLIENT_ID: 'cliente-ml',
      ML_SELLER_ID: '123456',
      ML_API_URL: nowhere,
      SHOPIFY_API_URL: nowhere,
      SHOPIFY_LOCATION_ID: 'gid://shopify/Location/1',
      S3_ENDPOINT: nowhere,
      S3_BUCKET: 'tienda',
      S3_PUBLIC_URL: `${nowhere}/tienda`,
      FACTUS_API_URL: nowhere,
      FACTUS_CLIENT_ID: 'cliente-factus',
      FACTUS_USERNAME: 'tienda@vitrina.test',
      FACTUS_NUMBERING_RANGE_ID: '8',
    }
    // A small shop and a signed-in admin, written before the server opens the database.
    const database = await openDatabase({ directory: path.join(dataDir, 'db') })
    const category = await createCategory(database.db, { name: 'Collares' })
    const product = await createProduct(database.db, { categoryIds: [category.id], withImage: false })
    facts.sku = product.sku
    facts.categoryId = category.id
    const config = authConfigFromEnv(parseEnv(env), SECRETS.SESSION_SECRET)
    adminCookie = (await signedInAs(database.db, config, 'duena@vitrina.test')).cookie
    await database.close()

    let output = ''
    child = spawn(process.execPath, ['server/index.js'], {
      env: { ...process.env, ...env, VITRINA_BUILD_DIR: buildDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout?.on('data', (chunk) => (output += chunk))
    child.stderr?.on('data', (chunk) => (output += chunk))
    await waitForHealth(base, child, () => output)
  })

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  const leaks = (text: string) => Object.entries(SECRETS).filter(([, value]) => text.includes(value))

  test('no built client file contains one', () => {
    const files = fs.readdirSync(path.join(buildDir, 'client'), { recursive: true, encoding: 'utf8' })
    let read = 0
    for (const file of files) {
      const full = path.join(buildDir, 'client', file)
      if (!fs.statSync(full).isFile()) continue
      read++
      expect(leaks(fs.readFileSync(full).toString('latin1')), file).toEqual([])
    }
    expect(read).toBeGreaterThan(5)
  })

  test('no page, for a shopper or a signed-in admin, nor any script it loads contains one', async () => {
    const shopper = [
      '/',
      `/producto/${facts.sku}`,
      `/categoria/${facts.categoryId}`,
      '/buscar?q=collar',
      '/carrito',
      '/finalizar-pedido',
      '/politica-de-datos',
      '/login-admin',
      '/no-existe',
      '/robots.txt',
      '/sitemap.xml',
      `/api/carrito?skus=${facts.sku}`,
      '/api/buscar?q=collar',
    ]
    const admin = [
      '/admin',
      '/admin/productos',
      '/admin/pedidos',
      '/admin/categorias',
      '/admin/canales',
      '/admin/ventas',
      '/admin/reportes',
      '/admin/configuraciones',
      '/admin/perfil',
    ]
    const scripts = new Set<string>()
    const check = async (pathname: string, cookie?: string) => {
      const answer = await fetch(`${base}${pathname}`, {
        redirect: 'manual',
        headers: cookie ? { Cookie: cookie } : {},
      })
      expect(answer.status, pathname).toBeLessThan(500)
      const text = await answer.text()
      expect(leaks(text), pathname).toEqual([])
      expect(leaks(JSON.stringify([...answer.headers])), `${pathname} (headers)`).toEqual([])
      for (const match of text.matchAll(/"(\/assets\/[^"]+\.js)"/g)) scripts.add(match[1]!)
      return answer.status
    }
    for (const pathname of shopper) await check(pathname)
    for (const pathname of admin) expect(await check(pathname, adminCookie), pathname).toBe(200)
    expect(scripts.size).toBeGreaterThan(0)
    for (const script of scripts) await check(script)
  })
})
