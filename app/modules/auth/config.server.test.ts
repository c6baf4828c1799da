import { expect, test } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { authConfigFromEnv, usesSecureCookies } from './config.server.ts'
import { authCookies } from './session.server.ts'

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

test('cookies are Secure with the __Host- prefix in production and whenever PUBLIC_URL is https', async () => {
  const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secreto', ADMIN_EMAILS: 'a@b.co' }
  const local = authConfigFromEnv(parseEnv({}), SECRET)
  // https without APP_ENV=production (e.g. a staging copy): still Secure and __Host-.
  const https = authConfigFromEnv(parseEnv({ ...google, PUBLIC_URL: 'https://tienda.example.co' }), SECRET)
  const httpsLocal = authConfigFromEnv(parseEnv({ PUBLIC_URL: 'https://localhost:3443' }), SECRET)
  expect(https.production).toBe(false)
  expect([local, https, httpsLocal].map(usesSecureCookies)).toEqual([false, true, true])
  for (const config of [https, httpsLocal]) {
    const session = await authCookies(config).session.serialize('token')
    expect(session).toMatch(/^__Host-vitrina_admin=/)
    expect(session).toMatch(/; Secure/)
    expect(await authCookies(config).signIn.serialize('x')).toMatch(/^__Host-vitrina_oidc=.*; Secure/)
  }
  const plain = await authCookies(local).session.serialize('token')
  expect(plain).toMatch(/^vitrina_admin=/)
  expect(plain).not.toMatch(/Secure/)
})
