import { afterEach, expect, test } from 'vitest'
import { useServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { testServices } from '#tests/services.ts'
import { loader } from './bench-baseline.tsx'

afterEach(() => {
  useServices(undefined)
})

test('the bench baseline page is a 404 unless the bench turns it on', async () => {
  useServices(testServices({ env: parseEnv({}) }))
  const thrown = await Promise.resolve()
    .then(() => loader())
    .catch((error: unknown) => error)
  expect(thrown).toMatchObject({ init: { status: 404 } })
  useServices(testServices({ env: parseEnv({ BENCH_BASELINE_PAGE: '1' }) }))
  expect(loader()).toBeNull()
})
