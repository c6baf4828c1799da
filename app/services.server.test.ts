import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Database } from '#app/db/client.server.ts'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import {
  buildServices,
  MISSING_WEBHOOK_SECRET_WARNING,
  webhookSecretOf,
  wompiApiUrl,
  wompiEventsSecretOf,
} from './services.server.ts'
import { logger } from '#app/utils/logger.server.ts'

/** Building the services touches no database: a stub is enough. */
const database = { db: {} } as unknown as Database

afterEach(() => {
  vi.restoreAllMocks()
})

test('Mercado Pago without a webhook secret (outside production) warns clearly at start-up', () => {
  const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {})
  const services = buildServices(parseEnv({ MP_ACCESS_TOKEN: 'APP_USR-123' }), database, recordingJobQueue())
  // Every webhook would be refused with 401…
  expect(webhookSecretOf(services)).toBeNull()
  // …so it is said once, naming the variable.
  expect(warn).toHaveBeenCalledTimes(1)
  expect(warn).toHaveBeenCalledWith(MISSING_WEBHOOK_SECRET_WARNING)
  expect(MISSING_WEBHOOK_SECRET_WARNING).toContain('MP_WEBHOOK_SECRET')
})

test.each([
  ['with its secret', { MP_ACCESS_TOKEN: 'APP_USR-123', MP_WEBHOOK_SECRET: 'secreto' }],
  ['the simulator', {}],
])('no warning for Mercado Pago %s', (_name, source) => {
  const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {})
  buildServices(parseEnv(source), database, recordingJobQueue())
  expect(warn).not.toHaveBeenCalled()
})

const GOOGLE = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secreto' }

describe('the payment simulator', () => {
  test.each([
    ['an https PUBLIC_URL, APP_ENV forgotten', { PUBLIC_URL: 'https://tienda.example.co', ...GOOGLE }],
    ['a LAN address', { PUBLIC_URL: 'http://192.168.1.20:3000' }],
    ['production on a loopback address', { APP_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' }],
  ])('is off with %s: online payment is not offered at all', (_name, source) => {
    const env = parseEnv({ SESSION_SECRET: 'x'.repeat(32), ADMIN_EMAILS: 'a@b.co', ...GOOGLE, ...source })
    const services = buildServices(env, database, recordingJobQueue())
    expect(services.simulator).toBeNull()
    expect(services.paymentDeps.providers.mercadopago.name).toBe('ninguno')
    expect(services.checkout.onlinePayments).toEqual({ mercadopago: false, wompi: false })
    // No secret: every notification is refused.
    expect(webhookSecretOf(services)).toBeNull()
  })

  test('runs on this machine, signing with a secret of its own process', () => {
    const first = buildServices(parseEnv({}), database, recordingJobQueue())
    const second = buildServices(
      parseEnv({ PUBLIC_URL: 'http://127.0.0.1:3000' }),
      database,
      recordingJobQueue(),
    )
    expect(first.simulator?.name).toBe('simulado')
    expect(first.checkout.onlinePayments).toEqual({ mercadopago: true, wompi: true })
    expect(webhookSecretOf(first)).toBe(first.simulator?.webhookSecret)
    expect(webhookSecretOf(first)).toMatch(/^[\w-]{43}$/)
    expect(webhookSecretOf(second)).not.toBe(webhookSecretOf(first))
    expect(second.simulator).not.toBeNull()
  })

  test('Mercado Pago configured: no simulator', () => {
    const env = parseEnv({ MP_ACCESS_TOKEN: 'APP_USR-1', MP_WEBHOOK_SECRET: 'secreto' })
    const services = buildServices(env, database, recordingJobQueue())
    expect(services.simulator).toBeNull()
    expect(services.paymentDeps.providers.mercadopago.name).toBe('mercadopago')
    expect(webhookSecretOf(services)).toBe('secreto')
  })
})

describe('Wompi', () => {
  const KEYS = {
    WOMPI_PUBLIC_KEY: 'pub_test_abc',
    WOMPI_PRIVATE_KEY: 'prv_test_abc',
    WOMPI_INTEGRITY_SECRET: 'test_integrity_abc',
    WOMPI_EVENTS_SECRET: 'test_events_abc',
  }

  test('simulated on this machine without keys, with an events secret of its own process', () => {
    const services = buildServices(parseEnv({}), database, recordingJobQueue())
    expect(services.paymentDeps.providers.wompi.name).toBe('wompi-simulado')
    expect(wompiEventsSecretOf(services)).toBe(services.wompiSimulator?.keys.eventsSecret)
    expect(wompiEventsSecretOf(services)).toMatch(/^test_events_[\w-]{32}$/)
    const other = buildServices(parseEnv({}), database, recordingJobQueue())
    expect(wompiEventsSecretOf(other)).not.toBe(wompiEventsSecretOf(services))
  })

  test('never simulated in production or off this machine: Wompi is not offered, its events refused', () => {
    for (const source of [
      { PUBLIC_URL: 'https://tienda.example.co', ...GOOGLE },
      { APP_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' },
    ]) {
      const env = parseEnv({ SESSION_SECRET: 'x'.repeat(32), ADMIN_EMAILS: 'a@b.co', ...GOOGLE, ...source })
      const services = buildServices(env, database, recordingJobQueue())
      expect(services.wompiSimulator).toBeNull()
      expect(services.paymentDeps.providers.wompi.name).toBe('ninguno')
      expect(services.checkout.onlinePayments.wompi).toBe(false)
      expect(wompiEventsSecretOf(services)).toBeNull()
    }
  })

  test('configured: the real provider, its events secret, the sandbox API for test keys', () => {
    const services = buildServices(parseEnv(KEYS), database, recordingJobQueue())
    expect(services.wompiSimulator).toBeNull()
    expect(services.paymentDeps.providers.wompi.name).toBe('wompi')
    expect(wompiEventsSecretOf(services)).toBe('test_events_abc')
    expect(wompiApiUrl(parseEnv(KEYS))).toBe('https://sandbox.wompi.co/v1')
    expect(wompiApiUrl(parseEnv({ ...KEYS, WOMPI_PUBLIC_KEY: 'pub_prod_abc' }))).toBe(
      'https://production.wompi.co/v1',
    )
    expect(wompiApiUrl(parseEnv({ ...KEYS, WOMPI_API_URL: 'http://127.0.0.1:4000/v1' }))).toBe(
      'http://127.0.0.1:4000/v1',
    )
  })

  test('half of its keys refuses to start, naming what is missing', () => {
    expect(() => parseEnv({ WOMPI_PUBLIC_KEY: 'pub_test_abc' })).toThrow(
      /Configuración incompleta de Wompi:\n {2}- WOMPI_PRIVATE_KEY es obligatorio para cobrar con Wompi/,
    )
  })
})

test('each part is in the registry once: the provider only in paymentDeps, the secret derived', () => {
  const env = parseEnv({ MP_ACCESS_TOKEN: 'APP_USR-1', MP_WEBHOOK_SECRET: 'secreto' })
  const services = buildServices(env, database, recordingJobQueue())
  expect(services).not.toHaveProperty('payments')
  expect(services).not.toHaveProperty('webhookSecret')
})

test('no process globals: the registry travels in the router context, nothing in app/ or server/ keeps state on globalThis', () => {
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) return sources(full)
      return /\.(ts|tsx|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : []
    })
  // zod-without-eval.ts runs in the browser only: it sets zod's own global switch before zod loads.
  const allowed = [path.join('app', 'utils', 'zod-without-eval.ts')]
  const offenders = [...sources('app'), ...sources('server')]
    .filter((file) => !allowed.includes(file))
    .filter((file) => /globalThis|declare global/.test(fs.readFileSync(file, 'utf8')))
  expect(offenders).toEqual([])
})

test('stock channels: none without settings, each one once its settings are all given', () => {
  expect(buildServices(parseEnv({}), database, recordingJobQueue()).channels).toEqual({})
  const env = parseEnv({
    SESSION_SECRET: 's'.repeat(32),
    ML_CLIENT_ID: '1',
    ML_CLIENT_SECRET: 'secreto',
    ML_REFRESH_TOKEN: 'TG-1',
    ML_SELLER_ID: '2',
    SHOPIFY_SHOP: 'mi-tienda.myshopify.com',
    SHOPIFY_ADMIN_TOKEN: 'shpat_x',
    SHOPIFY_LOCATION_ID: '3',
  })
  const { channels } = buildServices(env, database, recordingJobQueue())
  expect(channels.mercadolibre?.channel).toBe('mercadolibre')
  expect(channels.shopify?.channel).toBe('shopify')
})
