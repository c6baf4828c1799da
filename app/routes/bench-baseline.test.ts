import { expect, test } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import { loader } from './bench-baseline.tsx'

test('the bench baseline page is a 404 unless the bench turns it on', async () => {
  const withoutPage = routeContext(testServices({ env: parseEnv({}) }))
  const thrown = await Promise.resolve()
    .then(() => loader({ context: withoutPage } as never))
    .catch((error: unknown) => error)
  expect(thrown).toMatchObject({ init: { status: 404 } })
  const withPage = routeContext(testServices({ env: parseEnv({ BENCH_BASELINE_PAGE: '1' }) }))
  expect(loader({ context: withPage } as never)).toBeNull()
})
