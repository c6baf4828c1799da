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
