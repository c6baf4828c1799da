import { describe, expect, test } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { placeDiscountedOrder } from '#tests/discounted-orders.ts'
import { sendMetaEvent } from './events.server.ts'
import type { MetaCapiClient, MetaServerEvent } from './meta-capi.server.ts'
import { metaOrderContexts } from './schema.ts'

const t = setupTestDatabase()

describe("an order with promotions: Meta's Purchase", () => {
  test('its value is the discounted total, and each item the price of a unit net of its discounts', async () => {
    const order = await placeDiscountedOrder(t.db)
    await t.db
      .insert(metaOrderContexts)
      .values({ orderId: order.id, eventSourceUrl: 'https://tienda.example/finalizar-pedido' })
    const sent: MetaServerEvent[] = []
    const capi: MetaCapiClient = {
      async send(events) {
        sent.push(...events)
        return { eventsReceived: events.length, fbtraceId: 'trace' }
      },
    }
    const now = new Date()
    await sendMetaEvent(
      { db: t.db, capi, now: () => now },
      { kind: 'purchase', orderId: order.id, eventTime: Math.floor(now.getTime() / 1000) },
    )
    expect(sent).toHaveLength(1)
    const data = sent[0]!.custom_data as { value: number; contents: unknown[] }
    // 110.000 of products and 12.000 of shipping less 16.000 of discounts.
    expect(data.value).toBe(106_000)
    expect(data.contents).toEqual(
      expect.arrayContaining([
        { id: order.collar.sku, quantity: 2, item_price: 40_500 },
        { id: order.aretes.sku, quantity: 1, item_price: 18_000 },
      ]),
    )
  })
})
