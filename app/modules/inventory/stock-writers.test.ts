import path from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'
import {
  createProgram,
  findTableWriters,
  reportCallWrite,
  ROOT,
  SQL_WRITE,
  type TableGuard,
} from '#tests/table-writers.ts'
import { STOCK_COLUMNS } from './stock.server.ts'

/**
 * Inventory is the only writer of product stock, reserved units, units in and out, cost, location
 * stock and the ledger. This test reads the application's TypeScript with the compiler's type
 * checker (so an aliased import, a spread helper or a table handed to a generic insert helper is
 * still seen) and lists every place outside `app/modules/inventory/` that could write them.
 * Test files and `tests/` set up data as they please and are not read.
 */

type Guarded = 'products' | 'productLocations' | 'stockMovements'
const GUARDED_TABLES: TableGuard<Guarded>['tables'] = {
  products: { file: 'app/modules/catalog/schema.ts', sql: 'products' },
  productLocations: { file: 'app/modules/inventory/schema.ts', sql: 'product_locations' },
  stockMovements: { file: 'app/modules/inventory/schema.ts', sql: 'stock_movements' },
}
/** Builder calls whose argument holds the columns an insert or update writes. */
const WRITTEN_VALUES = new Set(['values', 'set', 'onConflictDoUpdate'])
const SQL_COLUMNS = ['stock', 'reserved', 'units_in', 'units_out', 'cost']

/** Every place outside inventory that writes a stock column, a location or the ledger. */
function findStockWriters(program: ts.Program): string[] {
  const checker = program.getTypeChecker()
  /** The stock columns a value written to `products` (an object, or an array of them) may set. */
  const stockColumnsIn = (type: ts.Type): string[] => {
    if (type.isUnion()) return [...new Set(type.types.flatMap(stockColumnsIn))]
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      return [...new Set(checker.getTypeArguments(type as ts.TypeReference).flatMap(stockColumnsIn))]
    }
    return STOCK_COLUMNS.filter((column) => type.getProperty(column))
  }

  return findTableWriters(program, {
    owner: 'app/modules/inventory',
    tables: GUARDED_TABLES,
    check(use, report) {
      if (use.kind === 'sql') {
        const { node, text } = use
        // The ledger and location tables named in raw SQL at all: reads go through the schema.
        for (const table of ['productLocations', 'stockMovements'] as const) {
          if (use.named.has(table)) report(node, `SQL names ${table}`)
        }
        if (!SQL_WRITE.test(text)) return
        for (const table of use.interpolated) {
          if (table !== 'products') report(node, `SQL writes ${table}: only inventory writes it`)
        }
        if (!use.interpolated.has('products') && !use.named.has('products')) return
        if (/\btruncate\b/.test(text)) report(node, 'SQL truncates products with their stock')
        else if (SQL_COLUMNS.some((column) => new RegExp(`\\b${column}\\s*=`).test(text))) {
          report(node, 'SQL writes stock columns of products: only inventory writes them')
        }
        return
      }

      const { call, method, tables } = use
      if (use.table !== 'products') return reportCallWrite(use, report, 'inventory')
      if (use.writes) {
        if (method === 'delete') return
        // Follow the builder chain: insert(products).values(…).onConflictDoUpdate({ set }) …
        let link: ts.Node = call
        while (ts.isPropertyAccessExpression(link.parent) && ts.isCallExpression(link.parent.parent)) {
          const next = link.parent.parent
          if (WRITTEN_VALUES.has(link.parent.name.text)) {
            for (const argument of next.arguments) {
              const type = checker.getTypeAtLocation(argument)
              const written =
                link.parent.name.text === 'onConflictDoUpdate'
                  ? (() => {
                      const set = type.getProperty('set')
                      return set ? stockColumnsIn(checker.getTypeOfSymbolAtLocation(set, argument)) : []
                    })()
                  : stockColumnsIn(type)
              if (written.length) {
                report(argument, `${method}(products) sets ${written.join(', ')}: only inventory writes it`)
              }
            }
          }
          link = next
        }
        return
      }
      // Products handed to another function (a bulk insert helper…) with stock columns in its rows.
      const written = call.arguments
        .filter((_, index) => !tables[index])
        .flatMap((argument) => stockColumnsIn(checker.getTypeAtLocation(argument)))
      if (written.length)
        report(call, `passes products with ${written.join(', ')} to ${method || 'a function'}`)
    },
  })
}

test('only inventory writes stock, reserved, units in/out, cost, locations and the ledger', () => {
  // A file that breaks the rule every way the test knows of, to show the test would notice.
  const probe = path.join(ROOT, 'app/modules/catalog/stock-writer-probe.ts')
  const program = createProgram({
    [probe]: `
      import { sql } from 'drizzle-orm'
      import { bulkInsert } from '#app/db/bulk-insert.server.ts'
      import type { Tx } from '#app/db/client.server.ts'
      import { products as p } from '#app/modules/catalog/schema.ts'
      import { productLocations, stockMovements } from '#app/modules/inventory/schema.ts'
      const restock = () => ({ stock: 3 })
      export async function probe(tx: Tx, rows: (typeof p.$inferInsert)[]) {
        await tx.update(p).set({ name: 'x', ...restock() })
        await tx.update(p).set({ name: 'x' })
        await tx.insert(p).values(rows)
        await tx.insert(p).values({ sku: 'a', name: 'a', searchName: 'a' }).onConflictDoUpdate({ target: p.sku, set: { cost: 1 } })
        await tx.delete(productLocations)
        await tx.select().from(stockMovements)
        await bulkInsert(tx, stockMovements, [])
        await bulkInsert(tx, p, rows)
        await tx.execute(sql\`update \${p} set reserved = 0\`)
        await tx.execute(sql\`insert into product_locations values ('a', 'b', 1)\`)
        await tx.execute(sql\`truncate \${p}, \${stockMovements}\`)
      }
    `,
  })
  const violations = findStockWriters(program)
  const probed = violations.filter((violation) =>
    violation.startsWith('app/modules/catalog/stock-writer-probe.ts'),
  )
  expect(probed.map((violation) => violation.replace(/^[^:]+:/, ''))).toEqual([
    '9 update(products) sets stock: only inventory writes it',
    '11 insert(products) sets stock, reserved, unitsIn, unitsOut, cost: only inventory writes it',
    '12 insert(products) sets cost: only inventory writes it',
    '13 delete(productLocations): only inventory writes it',
    '15 passes stockMovements to bulkInsert',
    '16 passes products with stock, reserved, unitsIn, unitsOut, cost to bulkInsert',
    '17 SQL writes stock columns of products: only inventory writes them',
    '18 SQL names productLocations',
    '19 SQL writes stockMovements: only inventory writes it',
    '19 SQL truncates products with their stock',
  ])
  expect(violations.filter((violation) => !probed.includes(violation))).toEqual([])
}, 120_000)
