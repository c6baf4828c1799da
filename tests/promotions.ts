import type { DbOrTx } from '#app/db/client.server.ts'
import { promotions } from '#app/modules/promotions/schema.ts'

let sequence = 0

/** A promotion row: by default an automatic 10 % on the whole order, running, combinable with none. */
export async function createPromotion(db: DbOrTx, overrides: Partial<typeof promotions.$inferInsert> = {}) {
  sequence += 1
  const [row] = await db
    .insert(promotions)
    .values({ name: `Promoción ${sequence}`, benefit: 'percent', target: 'order', percent: 10, ...overrides })
    .returning()
  return row!
}
