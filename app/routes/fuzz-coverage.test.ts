import path from 'node:path'
import { expect, test } from 'vitest'
import routes from '#app/routes.ts'
import {
  ADMIN_FUZZ_TARGETS,
  INPUTLESS_RESOURCE_ROUTES,
  PAGE_RESOURCE_ROUTES_WITH_INPUT,
  STOREFRONT_FUZZ_TARGETS,
} from '#tests/fuzz-targets.ts'

/**
 * Keeps the fuzz suites (storefront-fuzz.test.ts, admin/admin-fuzz.test.ts) complete: a new route
 * with an action, or a new resource route under routes/api/ (or another that reads its address,
 * `PAGE_RESOURCE_ROUTES_WITH_INPUT`), fails here until it is fuzzed.
 */

type RouteEntry = { file: string; children?: RouteEntry[] }
const files = (entries: RouteEntry[]): string[] =>
  entries.flatMap((entry) => [entry.file, ...files(entry.children ?? [])])

test('every route that takes input is fuzzed', async () => {
  const needed: string[] = []
  for (const file of new Set(files(routes as RouteEntry[]))) {
    const mod = (await import(path.resolve('app', file))) as { action?: unknown }
    const resource =
      file.startsWith('routes/api/') || (PAGE_RESOURCE_ROUTES_WITH_INPUT as readonly string[]).includes(file)
    if (mod.action || (resource && !(INPUTLESS_RESOURCE_ROUTES as readonly string[]).includes(file))) {
      needed.push(file)
    }
  }
  const fuzzed: readonly string[] = [...STOREFRONT_FUZZ_TARGETS, ...ADMIN_FUZZ_TARGETS]
  expect(needed.filter((file) => !fuzzed.includes(file))).toEqual([])
  // A listed file that no longer takes input (or no longer exists) is a stale entry.
  expect(fuzzed.filter((file) => !needed.includes(file))).toEqual([])
})
