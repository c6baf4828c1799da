import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { expect, test } from 'vitest'
import { MODULE_MAP } from '../../eslint.config.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** A path of imports that comes back to where it started (`a → b → a`), or null when there is none. */
function findCycle(map: Readonly<Record<string, readonly string[]>>): string[] | null {
  const done = new Set<string>()
  const path: string[] = []
  const visit = (module: string): string[] | null => {
    const loopStart = path.indexOf(module)
    if (loopStart >= 0) return [...path.slice(loopStart), module]
    if (done.has(module)) return null
    path.push(module)
    for (const imported of map[module] ?? []) {
      const cycle = visit(imported)
      if (cycle) return cycle
    }
    path.pop()
    done.add(module)
    return null
  }
  for (const module of Object.keys(map)) {
    const cycle = visit(module)
    if (cycle) return cycle
  }
  return null
}

test('every module folder has an entry in the module map, and every entry names modules', () => {
  const folders = readdirSync(new URL('./', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
  expect(Object.keys(MODULE_MAP).sort()).toEqual(folders.sort())
  for (const [module, imports] of Object.entries(MODULE_MAP)) {
    expect(
      imports.filter((name) => !folders.includes(name) || name === module),
      module,
    ).toEqual([])
  }
})

test('the module map has no cycle', () => {
  const cycle = findCycle(MODULE_MAP)
  expect(cycle && `modules import each other in a loop: ${cycle.join(' → ')}`).toBeNull()
})

test('the cycle check finds a loop', () => {
  expect(findCycle({ a: ['b'], b: ['c'], c: ['a'], d: [] })).toEqual(['a', 'b', 'c', 'a'])
})

test('lint refuses an import against the map (alias, relative, type-only), not a schema.ts', async () => {
  const code = [
    "import { discountedPrice } from '#app/modules/catalog/pricing.ts'",
    "import { generateSku } from '../catalog/sku.ts'",
    "import type { ProductFields } from '#app/modules/catalog/validators.ts'",
    "import { products } from '../catalog/schema.ts'",
    'export const used = [discountedPrice, generateSku, products] as unknown as ProductFields',
    '',
  ].join('\n')
  const [result] = await new ESLint({ cwd: ROOT }).lintText(code, {
    filePath: 'app/modules/inventory/module-map-probe.ts',
  })
  const refused = result!.messages.filter((message) => message.ruleId === 'no-restricted-imports')
  expect(refused.map((message) => message.line)).toEqual([1, 2, 3])
  expect(refused[0]!.message).toMatch(
    /The inventory module may not import the catalog module: .*docs\/architecture\.md/,
  )
  expect(result!.messages.filter((message) => message.ruleId !== 'no-restricted-imports')).toEqual([])
})
