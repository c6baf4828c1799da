import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, test, vi } from 'vitest'
import routes from '#app/routes.ts'
import { startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { asAdminRoute } from '#tests/routes.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import {
  answerOf,
  freshContext,
  FUZZ_RUNS,
  fuzzEndpoint,
  hostileText,
  reportInputsTried,
} from '#tests/fuzz.ts'
import { memoryStorage } from '#tests/media.ts'

/**
 * Issue 11, the reading side: every loader of app/routes.ts (pages, CSV downloads, JSON) gets
 * hostile route params and query strings (filters, pages, searches, ids). The admin's are read
 * signed in, so the values reach the filters. Never a 5xx, a Spanish message when refused, and
 * nothing written.
 */

type RouteEntry = { path?: string; file: string; index?: boolean; children?: RouteEntry[] }
type FlatRoute = { fullPath: string; file: string; params: string[] }

function flatten(entries: RouteEntry[], parent = ''): FlatRoute[] {
  return entries.flatMap((entry) => {
    const fullPath = [parent, entry.path ?? ''].filter(Boolean).join('/')
    const params = fullPath
      .split('/')
      .filter((segment) => segment === '*' || segment.startsWith(':'))
      .map((segment) => (segment === '*' ? '*' : segment.slice(1).replace(/\?$/, '')))
    return [{ fullPath, file: entry.file, params }, ...flatten(entry.children ?? [], fullPath)]
  })
}

/** Every query parameter a loader of ours reads, and then some. */
const QUERY_KEYS = [
  'q',
  'sku',
  'skus',
  'id',
  'pagina',
  'desde',
  'hasta',
  'estado',
  'categoria',
  'canal',
  'cursor',
  'pedido',
  'external_reference',
  'payment_id',
  'collection_status',
  'aviso',
  'error',
  'volver',
  'code',
  'state',
  'preferencias',
  'vista',
  'orden',
  'formato',
  'municipio',
]

const BASE = 'http://127.0.0.1:9'
const t = setupTestDatabase()
let services: Awaited<ReturnType<typeof startServices>>
const config = testAuthConfig(BASE)
let adminCookie: string
const real: Record<string, string> = {}

beforeAll(async () => {
  services = await startServices(parseEnv({ PUBLIC_URL: BASE }), t.database, {
    workers: false,
    auth: config,
    media: { kind: 'local', storage: memoryStorage(), publicBase: '/media/' },
  })
  vi.spyOn(logger, 'error').mockImplementation(() => {})
  vi.spyOn(logger, 'warn').mockImplementation(() => {})
  adminCookie = (await signedInAs(t.db, config, ADMIN_EMAIL)).cookie
  real.id = (await createCategory(t.db)).id
  real.sku = (await createProduct(t.db, { stock: 5, categoryIds: [real.id] })).sku
})
afterAll(async () => {
  reportInputsTried('loaders-fuzz')
  await services.stop()
  vi.restoreAllMocks()
})

const withLoaders = flatten(routes as RouteEntry[])

describe.each(withLoaders)('GET /$fullPath', (route) => {
  test('answers hostile params and query strings cleanly', async () => {
    const mod = (await import(path.resolve('app', route.file))) as { loader?: (args: never) => unknown }
    if (!mod.loader) return
    const loader = mod.loader
    const admin = route.fullPath === 'admin' || route.fullPath.startsWith('admin/')
    await fuzzEndpoint(
      `GET /${route.fullPath}`,
      t.database,
      fc.record({
        params: fc.tuple(...route.params.map(() => fc.oneof(fc.constant('REAL'), hostileText))),
        query: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), hostileText), hostileText), {
          maxLength: 4,
        }),
      }),
      ({ params, query }) => {
        const values = Object.fromEntries(
          route.params.map((name, index) => [
            name,
            params[index] === 'REAL' ? (real[name] ?? 'x') : params[index]!,
          ]),
        )
        const pathname = route.fullPath
          .split('/')
          .map((segment) => {
            if (segment === '*') return encodeURIComponent(values['*']!.replace(/[\ud800-\udfff]/g, '?'))
            if (!segment.startsWith(':')) return segment
            return encodeURIComponent(
              values[segment.slice(1).replace(/\?$/, '')]!.replace(/[\ud800-\udfff]/g, '?'),
            )
          })
          .join('/')
        const url = new URL(`${BASE}/${pathname}`)
        for (const [name, value] of query) url.searchParams.append(name, value)
        const request = new Request(url, { headers: admin ? { Cookie: adminCookie } : {} })
        const args = { request, url, params: values, context: freshContext(services) }
        // The back office's loaders run behind its middleware, as in the shop.
        return answerOf(() => (admin ? asAdminRoute(loader, args) : loader(args as never)))
      },
      { numRuns: Math.max(10, Math.round(FUZZ_RUNS / 4)), pageWords: route.file.endsWith('.tsx') },
    )
  }, 120_000)
})
