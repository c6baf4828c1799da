import { expect, test } from 'vitest'
import { parseEnv } from './env.server.ts'

test('works with no configuration at all', () => {
  const env = parseEnv({})
  expect(env.PORT).toBe(3000)
  expect(env.SHIPPING_COST).toBe(0)
  expect(env.FREE_SHIPPING_THRESHOLD).toBe(100000)
  expect(env.publicUrl).toBe('http://localhost:3000')
  expect(env.ADMIN_EMAILS).toEqual([])
})

test('parses lists and numbers', () => {
  const env = parseEnv({
    ADMIN_EMAILS: 'a@x.co, b@x.co',
    SHIPPING_COST: '8000',
    REDIRECT_HOSTS: 'a.web.app,B.app',
    PUBLIC_URL: 'https://tienda.example',
  })
  expect(env.ADMIN_EMAILS).toEqual(['a@x.co', 'b@x.co'])
  expect(env.SHIPPING_COST).toBe(8000)
  expect(env.REDIRECT_HOSTS).toEqual(['a.web.app', 'b.app'])
})

test('a bad value stops start-up with a message naming the variable', () => {
  expect(() => parseEnv({ PORT: 'abc' })).toThrow(/PORT/)
  expect(() => parseEnv({ ADMIN_EMAILS: 'no-es-correo' })).toThrow(/ADMIN_EMAILS/)
  expect(() => parseEnv({ DATABASE_URL: 'postgres' })).toThrow(/DATABASE_URL/)
  expect(() => parseEnv({ SHIPPING_COST: '-1' })).toThrow(/SHIPPING_COST/)
})

test('a production deployment needs its secrets', () => {
  expect(() => parseEnv({ APP_ENV: 'production' })).toThrow(/SESSION_SECRET.*\n.*PUBLIC_URL/s)
  expect(() =>
    parseEnv({
      APP_ENV: 'production',
      SESSION_SECRET: 's'.repeat(32),
      PUBLIC_URL: 'https://tienda.example',
      MP_ACCESS_TOKEN: 'token',
    }),
  ).toThrow(/MP_WEBHOOK_SECRET/)
})

test('a production deployment needs Google sign-in and the allow-list', () => {
  const base = { APP_ENV: 'production', SESSION_SECRET: 's'.repeat(32), PUBLIC_URL: 'https://tienda.example' }
  expect(() => parseEnv(base)).toThrow(/GOOGLE_CLIENT_ID.*\n.*GOOGLE_CLIENT_SECRET.*\n.*ADMIN_EMAILS/s)
  const env = parseEnv({
    ...base,
    GOOGLE_CLIENT_ID: 'id',
    GOOGLE_CLIENT_SECRET: 'secreto',
    ADMIN_EMAILS: 'a@x.co',
  })
  expect(env.GOOGLE_CLIENT_ID).toBe('id')
})

test('Wompi: all four keys or none, anywhere; sandbox keys never in production', () => {
  expect(() => parseEnv({ WOMPI_PUBLIC_KEY: 'pub_test_x', WOMPI_PRIVATE_KEY: 'prv_test_x' })).toThrow(
    /WOMPI_INTEGRITY_SECRET es obligatorio para cobrar con Wompi\n.*WOMPI_EVENTS_SECRET/s,
  )
  const keys = {
    WOMPI_PRIVATE_KEY: 'prv',
    WOMPI_INTEGRITY_SECRET: 'integridad',
    WOMPI_EVENTS_SECRET: 'eventos',
  }
  const production = {
    APP_ENV: 'production',
    SESSION_SECRET: 's'.repeat(32),
    PUBLIC_URL: 'https://tienda.example',
    GOOGLE_CLIENT_ID: 'id',
    GOOGLE_CLIENT_SECRET: 'secreto',
    ADMIN_EMAILS: 'a@x.co',
  }
  expect(() => parseEnv({ ...production, ...keys, WOMPI_PUBLIC_KEY: 'pub_test_x' })).toThrow(
    /WOMPI_PUBLIC_KEY es una llave de pruebas/,
  )
  expect(parseEnv({ ...production, ...keys, WOMPI_PUBLIC_KEY: 'pub_prod_x' }).WOMPI_PUBLIC_KEY).toBe(
    'pub_prod_x',
  )
  // Locally the sandbox is what a developer wants.
  expect(parseEnv({ ...keys, WOMPI_PUBLIC_KEY: 'pub_test_x' }).WOMPI_PUBLIC_KEY).toBe('pub_test_x')
})

test('half a sign-in configuration stops a local start too', () => {
  expect(() => parseEnv({ GOOGLE_CLIENT_ID: 'id' })).toThrow(/GOOGLE_CLIENT_SECRET/)
  expect(() => parseEnv({ OIDC_ISSUER: 'https://idp.example' })).toThrow(/GOOGLE_CLIENT_ID/)
})

test('REDIRECT_HOSTS needs PUBLIC_URL, the target of the redirect', () => {
  expect(() => parseEnv({ REDIRECT_HOSTS: 'vieja.web.app' })).toThrow(
    /PUBLIC_URL es obligatorio cuando REDIRECT_HOSTS/,
  )
  expect(parseEnv({ REDIRECT_HOSTS: '', PORT: '3000' }).REDIRECT_HOSTS).toEqual([])
})

test('REDIRECT_HOSTS entries with a port are refused, naming the variable', () => {
  const base = { PUBLIC_URL: 'https://tienda.example' }
  expect(() => parseEnv({ ...base, REDIRECT_HOSTS: 'vieja.web.app:8080' })).toThrow(
    /REDIRECT_HOSTS.*no puede llevar puerto/,
  )
  expect(() => parseEnv({ ...base, REDIRECT_HOSTS: 'ok.app, localhost:3000' })).toThrow(/REDIRECT_HOSTS/)
  expect(() => parseEnv({ ...base, REDIRECT_HOSTS: 'https://vieja.web.app/' })).toThrow(
    /REDIRECT_HOSTS.*sin esquema ni ruta/,
  )
})

test('the delivery time of the footer has a default and can be set', () => {
  expect(parseEnv({}).DELIVERY_TIME).toMatch(/días hábiles/)
  expect(parseEnv({ DELIVERY_TIME: 'Entrega en 2 días hábiles.' }).DELIVERY_TIME).toBe(
    'Entrega en 2 días hábiles.',
  )
  expect(() => parseEnv({ DELIVERY_TIME: '  ' })).toThrow(/DELIVERY_TIME/)
})

const MERCADOLIBRE = {
  ML_CLIENT_ID: '4934588586838432',
  ML_CLIENT_SECRET: 'secreto',
  ML_REFRESH_TOKEN: 'TG-abc',
  ML_SELLER_ID: '1234567890',
  SESSION_SECRET: 's'.repeat(32),
}
const SHOPIFY = {
  SHOPIFY_SHOP: 'mi-tienda.myshopify.com',
  SHOPIFY_ADMIN_TOKEN: 'shpat_x',
  SHOPIFY_LOCATION_ID: '655441491',
}

test('stock channels are off without settings, and on with all of them', () => {
  expect(parseEnv({}).SHOPIFY_API_VERSION).toBe('2026-10')
  const env = parseEnv({ ...MERCADOLIBRE, ...SHOPIFY })
  expect(env.ML_REFRESH_TOKEN).toBe('TG-abc')
  expect(env.SHOPIFY_LOCATION_ID).toBe('655441491')
})

test('half a channel configuration stops start-up, naming what is missing', () => {
  expect(() => parseEnv({ ML_CLIENT_ID: 'id' })).toThrow(
    /canales de venta:\n.*ML_CLIENT_SECRET es obligatorio.*\n.*ML_REFRESH_TOKEN.*\n.*ML_SELLER_ID.*\n.*SESSION_SECRET/,
  )
  expect(() => parseEnv({ ...MERCADOLIBRE, SESSION_SECRET: '' })).toThrow(
    /SESSION_SECRET es obligatorio con MercadoLibre/,
  )
  expect(() => parseEnv({ ML_ACCESS_TOKEN: 'APP_USR-1' })).toThrow(/ML_CLIENT_ID es obligatorio/)
  expect(() => parseEnv({ SHOPIFY_ADMIN_TOKEN: 'shpat_x' })).toThrow(
    /SHOPIFY_SHOP es obligatorio.*\n.*SHOPIFY_LOCATION_ID es obligatorio/,
  )
  const { SHOPIFY_ADMIN_TOKEN: _token, ...withoutToken } = SHOPIFY
  expect(() => parseEnv(withoutToken)).toThrow(/SHOPIFY_ADMIN_TOKEN es obligatorio/)
  // A stand-in's URL takes the shop's place.
  expect(() =>
    parseEnv({ SHOPIFY_API_URL: 'http://127.0.0.1:9', SHOPIFY_ADMIN_TOKEN: 't', SHOPIFY_LOCATION_ID: '1' }),
  ).not.toThrow()
})

test('bad channel values name the variable', () => {
  expect(() => parseEnv({ ...SHOPIFY, SHOPIFY_SHOP: 'https://mi-tienda.myshopify.com' })).toThrow(
    /SHOPIFY_SHOP/,
  )
  expect(() => parseEnv({ ...SHOPIFY, SHOPIFY_LOCATION_ID: 'bodega' })).toThrow(/SHOPIFY_LOCATION_ID/)
  expect(() => parseEnv({ SHOPIFY_API_VERSION: '2026-05' })).toThrow(/SHOPIFY_API_VERSION/)
  expect(parseEnv({ ...SHOPIFY, SHOPIFY_LOCATION_ID: 'gid://shopify/Location/1' }).SHOPIFY_LOCATION_ID).toBe(
    'gid://shopify/Location/1',
  )
})

test('production asks for a channel only when it is on', () => {
  const production = {
    APP_ENV: 'production',
    SESSION_SECRET: 's'.repeat(32),
    PUBLIC_URL: 'https://tienda.example',
    GOOGLE_CLIENT_ID: 'id',
    GOOGLE_CLIENT_SECRET: 'secreto',
    ADMIN_EMAILS: 'a@x.co',
  }
  expect(() => parseEnv(production)).not.toThrow()
  expect(() => parseEnv({ ...production, ...MERCADOLIBRE, ...SHOPIFY })).not.toThrow()
  expect(() => parseEnv({ ...production, ML_SELLER_ID: '1' })).toThrow(/ML_CLIENT_ID es obligatorio/)
})
