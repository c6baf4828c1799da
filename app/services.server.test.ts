import { afterEach, expect, test, vi } from 'vitest'
import type { Database } from '#app/db/client.server.ts'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { buildServices, MISSING_WEBHOOK_SECRET_WARNING } from './services.server.ts'

/** Building the services touches no database: a stub is enough. */
const database = { db: {} } as unknown as Database

afterEach(() => {
  vi.restoreAllMocks()
})

test('Mercado Pago without a webhook secret (outside production) warns clearly at start-up', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const services = buildServices(parseEnv({ MP_ACCESS_TOKEN: 'APP_USR-123' }), database, recordingJobQueue())
  // Every webhook would be refused with 401…
  expect(services.webhookSecret).toBeNull()
  // …so it is said once, naming the variable.
  expect(warn).toHaveBeenCalledTimes(1)
  expect(warn).toHaveBeenCalledWith(MISSING_WEBHOOK_SECRET_WARNING)
  expect(MISSING_WEBHOOK_SECRET_WARNING).toContain('MP_WEBHOOK_SECRET')
})

test.each([
  ['with its secret', { MP_ACCESS_TOKEN: 'APP_USR-123', MP_WEBHOOK_SECRET: 'secreto' }],
  ['the simulator', {}],
])('no warning for Mercado Pago %s', (_name, source) => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  buildServices(parseEnv(source), database, recordingJobQueue())
  expect(warn).not.toHaveBeenCalled()
})
