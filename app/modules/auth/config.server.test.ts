import { expect, test } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { authConfigFromEnv, isLoopbackUrl } from './config.server.ts'

const SECRET = 's'.repeat(32)

test('the local sign-in provider serves only this machine', () => {
  expect(authConfigFromEnv(parseEnv({}), SECRET).oidc.local).toBe(true)
  expect(authConfigFromEnv(parseEnv({ PUBLIC_URL: 'http://127.0.0.1:4000' }), SECRET).oidc.local).toBe(true)
})

test('a public address without Google sign-in stops start-up, even without APP_ENV', () => {
  expect(() =>
    authConfigFromEnv(parseEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://tienda.example.co' }), SECRET),
  ).toThrow(/APP_ENV=production, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET y ADMIN_EMAILS/)
})

test('loopback addresses', () => {
  expect(isLoopbackUrl('http://localhost:3000')).toBe(true)
  expect(isLoopbackUrl('http://127.0.0.1')).toBe(true)
  expect(isLoopbackUrl('http://[::1]:3000')).toBe(true)
  expect(isLoopbackUrl('https://localhost.tienda.co')).toBe(false)
  expect(isLoopbackUrl('https://tienda.example.co')).toBe(false)
})
