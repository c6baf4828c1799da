import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { expect, test } from 'vitest'
import { withNonce } from '#app/utils/csp-nonce.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { securityHeaders } from './app.ts'
import {
  contentSecurityPolicy,
  cspNonce,
  lateStyleHashes,
  MERCADO_PAGO_CHECKOUT,
  META_REPORT_ORIGIN,
  policySources,
} from './content-security-policy.ts'

const NONCE = 'bm9uY2Utb2YtdGhpcy10ZXN0'

function policy(vars: Record<string, string>, options: { dev?: boolean } = {}) {
  const text = contentSecurityPolicy(policySources(parseEnv(vars), options), NONCE)
  const directives = new Map<string, string[]>()
  for (const part of text.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    directives.set(name!, values)
  }
  return { text, get: (name: string) => directives.get(name) ?? [] }
}

const S3 = {
  S3_BUCKET: 'vitrina',
  S3_ACCESS_KEY_ID: 'clave',
  S3_SECRET_ACCESS_KEY: 'secreto',
  S3_PUBLIC_URL: 'https://medios.example.co/vitrina',
}

test('with nothing configured: own origin and the nonce only, nobody frames the shop', () => {
  const csp = policy({})
  expect(csp.get('default-src')).toEqual(["'self'"])
  expect(csp.get('script-src')).toEqual(["'self'", `'nonce-${NONCE}'`])
  expect(csp.get('style-src')).toEqual(["'self'", `'nonce-${NONCE}'`, ...lateStyleHashes()])
  expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:'])
  expect(csp.get('media-src')).toEqual(["'self'", 'blob:'])
  expect(csp.get('connect-src')).toEqual(["'self'"])
  // The bundled sign-in provider is the shop's own origin.
  expect(csp.get('form-action')).toEqual(["'self'"])
  expect(csp.get('frame-ancestors')).toEqual(["'none'"])
  expect(csp.get('object-src')).toEqual(["'none'"])
  expect(csp.get('base-uri')).toEqual(["'none'"])
  expect(csp.text).not.toMatch(/facebook|mercadopago|medios/)
})

test('no configuration lets inline or evaluated scripts run', () => {
  const everything = {
    ...S3,
    META_PIXEL_ID: '123',
    MP_ACCESS_TOKEN: 'token',
    MP_WEBHOOK_SECRET: 'secreto',
    GOOGLE_CLIENT_ID: 'id',
    GOOGLE_CLIENT_SECRET: 'secreto',
  }
  for (const csp of [policy({}), policy(everything), policy(everything, { dev: true })]) {
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'")
    expect(csp.get('script-src')).not.toContain("'unsafe-eval'")
    expect(csp.get('script-src')).toContain(`'nonce-${NONCE}'`)
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
  }
})

test('the Meta pixel’s origins only with a pixel id', () => {
  const csp = policy({
    META_PIXEL_ID: '123',
    META_PIXEL_SCRIPT_URL: 'https://connect.facebook.net/es_LA/fbevents.js',
  })
  expect(csp.get('script-src')).toEqual(["'self'", `'nonce-${NONCE}'`, 'https://connect.facebook.net'])
  expect(csp.get('connect-src')).toEqual(["'self'", 'https://connect.facebook.net', META_REPORT_ORIGIN])
  expect(csp.get('img-src')).toEqual([
    "'self'",
    'data:',
    'blob:',
    'https://connect.facebook.net',
    META_REPORT_ORIGIN,
  ])
  // The script URL alone (it has a default) adds nothing.
  expect(policy({ META_PIXEL_SCRIPT_URL: 'https://connect.facebook.net/x.js' }).text).not.toContain(
    'facebook',
  )
})

test('Mercado Pago’s checkout as a form destination only with its access token', () => {
  const csp = policy({ MP_ACCESS_TOKEN: 'token', MP_WEBHOOK_SECRET: 'secreto' })
  expect(csp.get('form-action')).toEqual(["'self'", MERCADO_PAGO_CHECKOUT])
  expect(policy({}).get('form-action')).not.toContain(MERCADO_PAGO_CHECKOUT)
})

test('Wompi’s Web Checkout as a form destination only with its keys, and exactly its origin', () => {
  const wompi = {
    WOMPI_PUBLIC_KEY: 'pub_test_x',
    WOMPI_PRIVATE_KEY: 'prv_test_x',
    WOMPI_INTEGRITY_SECRET: 'test_integrity_x',
    WOMPI_EVENTS_SECRET: 'test_events_x',
  }
  expect(policy(wompi).get('form-action')).toEqual(["'self'", 'https://checkout.wompi.co'])
  expect(policy({ ...wompi, WOMPI_CHECKOUT_URL: 'http://127.0.0.1:4555/p/' }).get('form-action')).toEqual([
    "'self'",
    'http://127.0.0.1:4555',
  ])
  expect(policy({}).get('form-action')).toEqual(["'self'"])
})

test('the media bucket’s origin for images and videos only with S3 storage', () => {
  const csp = policy(S3)
  expect(csp.get('img-src')).toContain('https://medios.example.co')
  expect(csp.get('media-src')).toEqual(["'self'", 'blob:', 'https://medios.example.co'])
  // A public URL without the bucket's keys is not S3 storage: media stay on the shop's origin.
  expect(policy({ S3_PUBLIC_URL: 'https://medios.example.co' }).text).not.toContain('medios')
})

test('the sign-in form may go on to Google (or the configured issuer) when the bundled provider is off', () => {
  expect(policy({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' }).get('form-action')).toEqual([
    "'self'",
    'https://accounts.google.com',
  ])
  expect(
    policy({
      OIDC_ISSUER: 'https://id.example.co/realms/x',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 's',
    }).get('form-action'),
  ).toEqual(["'self'", 'https://id.example.co'])
})

test('development lets Vite’s styles and HMR socket in, scripts still by nonce', () => {
  const csp = policy({}, { dev: true })
  expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"])
  expect(csp.get('connect-src')).toEqual(["'self'", 'ws:', 'wss:'])
})

test('sonner’s stylesheet (added without a nonce) is let in by its hash, and the empty style before it', () => {
  const hashes = lateStyleHashes()
  expect(hashes).toContain("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='")
  expect(hashes).toHaveLength(2)
})

test('a kept page gets the current nonce everywhere the old one was', () => {
  const html = `<style nonce="old+/=">a{}</style><script nonce="old+/=">x</script>`
  expect(withNonce(html, 'old+/=', 'new')).toBe(
    `<style nonce="new">a{}</style><script nonce="new">x</script>`,
  )
  expect(withNonce(html, '', 'new')).toBe(html)
})

test('every answer gets a new nonce, in the header and in res.locals; a 304 carries no policy', async () => {
  const app = express()
  app.use(securityHeaders(parseEnv({})))
  app.get('/pagina', (_req, res) => {
    res.type('html').send(`<script nonce="${cspNonce(res)}"></script>`)
  })
  app.get('/sin-cambios', (_req, res) => {
    res.status(304).end()
  })
  const server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    const nonces = []
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${base}/pagina`)
      const header = answer.headers.get('content-security-policy') ?? ''
      const nonce = header.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1]
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
      expect(await answer.text()).toBe(`<script nonce="${nonce}"></script>`)
      expect(answer.headers.get('x-frame-options')).toBe('DENY')
      nonces.push(nonce)
    }
    expect(new Set(nonces).size).toBe(3)
    const notModified = await fetch(`${base}/sin-cambios`)
    expect(notModified.status).toBe(304)
    expect(notModified.headers.get('content-security-policy')).toBeNull()
    expect(notModified.headers.get('x-content-type-options')).toBe('nosniff')
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})
