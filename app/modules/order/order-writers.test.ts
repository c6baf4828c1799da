import path from 'node:path'
import type ts from 'typescript'
import { expect, test } from 'vitest'
import {
  createProgram,
  findTableWriters,
  reportCallWrite,
  ROOT,
  SQL_WRITE,
  type TableGuard,
} from '#tests/table-writers.ts'

/**
 * The order module is the only writer of orders, their lines and their timeline: checkout, payment,
 * the importer and the rest call an order function, so every status rule and timeline event has
 * one home. Read with the type checker like `stock-writers.test.ts` (an aliased import or a table
 * handed to a generic helper is still seen); test files and `tests/` are not read.
 */

type Guarded = 'orders' | 'orderItems' | 'orderEvents' | 'orderDiscounts'
const GUARDED_TABLES: TableGuard<Guarded>['tables'] = {
  orders: { file: 'app/modules/order/schema.ts', sql: 'orders' },
  orderItems: { file: 'app/modules/order/schema.ts', sql: 'order_items' },
  orderEvents: { file: 'app/modules/order/schema.ts', sql: 'order_events' },
  orderDiscounts: { file: 'app/modules/order/schema.ts', sql: 'order_discounts' },
}

function findOrderWriters(program: ts.Program): string[] {
  return findTableWriters(program, {
    owner: 'app/modules/order',
    tables: GUARDED_TABLES,
    check(use, report) {
      if (use.kind === 'call') return reportCallWrite(use, report, 'order')
      // Raw SQL may read the order tables (the dead-letter list joins orders), not write them.
      if (!SQL_WRITE.test(use.text)) return
      for (const table of new Set([...use.interpolated, ...use.named])) {
        report(use.node, `SQL writes ${table}: only order writes it`)
      }
    },
  })
}

test('only the order module writes orders, their items, discounts and timeline', () => {
  // A file that breaks the rule every way the test knows of, to show the test would notice.
  const probe = path.join(ROOT, 'app/modules/payment/order-writer-probe.ts')
  const program = createProgram({
    [probe]: `
      import { sql } from 'drizzle-orm'
      import type { PgTable } from 'drizzle-orm/pg-core'
      import { bulkInsert } from '#app/db/bulk-insert.server.ts'
      import type { Tx } from '#app/db/client.server.ts'
      import { orderEvents, orderItems, orders as o } from '#app/modules/order/schema.ts'
      const empty = <T extends PgTable>(tx: Tx, table: T) => tx.delete(table)
      export async function probe(tx: Tx) {
        await tx.update(o).set({ status: 'pagado' })
        await tx.insert(orderItems).values({ orderId: 'a', productSku: 'b', title: 'c', quantity: 1, unitPrice: 1 })
        await tx.delete(orderEvents)
        await tx.select().from(o).innerJoin(orderItems, sql\`true\`)
        await empty(tx, orderEvents)
        await bulkInsert(tx, orderItems, [])
        await tx.execute(sql\`update \${o} set status = 'pagado'\`)
        await tx.execute(sql\`insert into order_events (order_id, type, message) values ('a', 'b', 'c')\`)
        await tx.execute(sql\`select o.number from orders o join order_items i on i.order_id = o.id\`)
        await tx.execute(sql.raw('truncate orders cascade'))
      }
    `,
  })
  const violations = findOrderWriters(program)
  const probed = violations.filter((violation) =>
    violation.startsWith('app/modules/payment/order-writer-probe.ts'),
  )
  expect(probed.map((violation) => violation.replace(/^[^:]+:/, ''))).toEqual([
    '9 update(orders): only order writes it',
    '10 insert(orderItems): only order writes it',
    '11 delete(orderEvents): only order writes it',
    '13 passes orderEvents to empty',
    '14 passes orderItems to bulkInsert',
    '15 SQL writes orders: only order writes it',
    '16 SQL writes orderEvents: only order writes it',
    '18 SQL writes orders: only order writes it',
  ])
  expect(violations.filter((violation) => !probed.includes(violation))).toEqual([])
}, 120_000)
