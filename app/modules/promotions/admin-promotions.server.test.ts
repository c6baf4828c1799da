import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { stockMovements } from '#app/modules/inventory/schema.ts'
import { orderDiscounts, orderItems } from '#app/modules/order/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createOrder, createProduct } from '#tests/factories.ts'
import {
  copyName,
  createPromotion,
  duplicatePromotion,
  endPromotionNow,
  getPromotion,
  listPromotions,
  pausePromotion,
  PromotionRefused,
  resumePromotion,
  stateOf,
  updatePromotion,
} from './admin-promotions.server.ts'
import { promotions } from './schema.ts'
import { NEW_PROMOTION_VALUES, PROMOTION_MESSAGES, type PromotionFormValues } from './validators.ts'

const t = setupTestDatabase()
const NOW = new Date('2026-11-20T15:00:00Z')
let categoryId: string
let sku: string

beforeAll(async () => {
  categoryId = (await createCategory(t.db, { name: 'Aretes' })).id
  sku = (await createProduct(t.db, { categoryIds: [categoryId], pesos: 30000, cost: 10_000_00 })).sku
})

const form = (overrides: Partial<PromotionFormValues> = {}): PromotionFormValues => ({
  ...NEW_PROMOTION_VALUES,
  name: 'Bienvenida',
  ...overrides,
})

async function refusalOf(run: () => Promise<unknown>) {
  try {
    await run()
  } catch (thrown) {
    if (thrown instanceof PromotionRefused) return thrown.errors
    throw thrown
  }
  throw new Error('expected a refusal')
}

/** An order of `quantity` units of the shared product that used `promotionId`, `off` per line. */
async function orderUsing(
  promotionId: number,
  options: {
    quantity?: number
    off?: number
    status?: 'pendiente de pago' | 'cancelado'
    shipped?: boolean
  } = {},
) {
  const { quantity = 2, off = 6_000_00, status = 'pendiente de pago', shipped = false } = options
  const subtotal = quantity * 30_000_00
  const order = await createOrder(t.db, {
    subtotal,
    shippingCost: 8_000_00,
    discount: off,
    total: subtotal + 8_000_00 - off,
    status,
    shippedAt: shipped ? NOW : null,
  })
  await t.db.insert(orderItems).values({
    orderId: order.id,
    productSku: sku,
    title: 'Aretes',
    quantity,
    unitPrice: 30_000_00,
    discount: off,
  })
  await t.db
    .insert(orderDiscounts)
    .values({ orderId: order.id, promotionId, name: 'x', code: null, productSku: sku, amount: off })
  return order
}

test('state: pausada, vencida, agotada, programada, activa', () => {
  const row = { active: true, startsAt: null, endsAt: null, maxUses: null }
  expect(stateOf(row, 0, NOW)).toBe('activa')
  expect(stateOf({ ...row, active: false }, 0, NOW)).toBe('pausada')
  expect(stateOf({ ...row, startsAt: new Date(NOW.getTime() + 1) }, 0, NOW)).toBe('programada')
  expect(stateOf({ ...row, endsAt: NOW }, 0, NOW)).toBe('vencida')
  expect(stateOf({ ...row, active: false, endsAt: NOW }, 0, NOW)).toBe('vencida')
  expect(stateOf({ ...row, maxUses: 3 }, 3, NOW)).toBe('agotada')
  expect(stateOf({ ...row, maxUses: 3 }, 2, NOW)).toBe('activa')
})

test('create: a code and an automatic "lleve 3 pague 2"; a taken code and unknown products are refused', async () => {
  const { id } = await createPromotion(
    t.db,
    form({ code: 'bienvenida10', maxUses: '50', startsAt: '2026-11-01T00:00' }),
    NOW,
  )
  const row = await getPromotion(t.db, String(id))
  expect(row).toMatchObject({
    code: 'BIENVENIDA10',
    percent: 10,
    maxUses: 50,
    startsAt: new Date('2026-11-01T05:00:00Z'),
    active: true,
  })
  expect(await refusalOf(() => createPromotion(t.db, form({ code: ' Bienvenida10 ' }), NOW))).toEqual({
    code: PROMOTION_MESSAGES.codeTaken('BIENVENIDA10'),
  })
  expect(
    await refusalOf(() =>
      createPromotion(
        t.db,
        form({
          kind: 'automatica',
          target: 'products',
          productSkus: `${sku}, NO-EXISTE`,
          categoryIds: ['Categoria_0'],
        }),
        NOW,
      ),
    ),
  ).toEqual({
    productSkus: PROMOTION_MESSAGES.unknownSkus(['NO-EXISTE']),
    categoryIds: PROMOTION_MESSAGES.unknownCategories,
  })
  expect(await refusalOf(() => createPromotion(t.db, form({ name: '' }), NOW))).toEqual({
    name: PROMOTION_MESSAGES.nameRequired,
  })
  const buyPay = await createPromotion(
    t.db,
    form({
      name: 'Aretes 3x2',
      kind: 'automatica',
      benefit: 'buy_x_pay_y',
      buyQuantity: '3',
      payQuantity: '2',
      target: 'products',
      categoryIds: [categoryId],
    }),
    NOW,
  )
  const list = await listPromotions(t.db, NOW)
  expect(list.find((p) => p.id === buyPay.id)).toMatchObject({
    code: null,
    description: 'Lleve 3 pague 2 en Aretes',
    state: 'activa',
    uses: 0,
    revenue: 0,
    margin: 0,
  })
  expect(list.find((p) => p.id === id)).toMatchObject({ description: '10 % en todo el pedido', maxUses: 50 })
})

test('uses, revenue and margin come from the orders that used it, cancelled ones left out', async () => {
  const { id } = await createPromotion(t.db, form({ code: 'CIFRAS', maxUses: '2' }), NOW)
  // Not shipped: 2 × 30.000 − 6.000 of discount, at the product's cost 10.000 each → 34.000.
  await orderUsing(id)
  // Shipped: the ledger's exits are its cost (2 × 12.000), net of a return of one (12.000).
  const shipped = await orderUsing(id, { shipped: true })
  const movement = {
    productSku: sku,
    quantity: 2,
    unitPrice: 12_000_00,
    total: 24_000_00,
    location: 'P1',
    orderId: shipped.id,
    stockAfter: 0,
    averageCostAfter: 0,
    createdBy: 'x',
  }
  await t.db.insert(stockMovements).values([
    { ...movement, type: 'out' },
    { ...movement, type: 'in', quantity: 1, total: 12_000_00 },
  ])
  await orderUsing(id, { status: 'cancelado' })
  const [row] = (await listPromotions(t.db, NOW)).filter((p) => p.id === id)
  expect(row).toMatchObject({ uses: 2, state: 'agotada' })
  // As "Ventas" counts them: products net of the discount, shipping apart.
  expect(row!.revenue).toBe(2 * (60_000_00 - 6_000_00))
  expect(row!.margin).toBe(34_000_00 + (54_000_00 - 12_000_00))
})

test('update changes the promotion, never the orders that used it', async () => {
  const { id } = await createPromotion(t.db, form({ code: 'CAMBIA' }), NOW)
  const order = await orderUsing(id, { off: 1_000_00 })
  await updatePromotion(
    t.db,
    String(id),
    form({ name: 'Otra', code: 'cambia', benefit: 'fixed', amount: '5.000' }),
    NOW,
  )
  expect(await getPromotion(t.db, id)).toMatchObject({
    name: 'Otra',
    benefit: 'fixed',
    amount: 5_000_00,
    percent: 0,
  })
  const [kept] = await t.db.select().from(orderDiscounts).where(eq(orderDiscounts.orderId, order.id))
  expect(kept).toMatchObject({ amount: 1_000_00, name: 'x' })
  expect(
    await refusalOf(() => updatePromotion(t.db, String(id), form({ code: 'BIENVENIDA10' }), NOW)),
  ).toEqual({
    code: PROMOTION_MESSAGES.codeTaken('BIENVENIDA10'),
  })
  await expect(updatePromotion(t.db, '999999', form({ code: 'NUEVO' }), NOW)).rejects.toThrow(
    PROMOTION_MESSAGES.notFound,
  )
  await expect(updatePromotion(t.db, 'abc', form(), NOW)).rejects.toThrow(PROMOTION_MESSAGES.notFound)
})

test('duplicate: "… (copia)", paused, under a free code', async () => {
  const { id } = await createPromotion(t.db, form({ name: 'Verano', code: 'VERANO' }), NOW)
  const first = await duplicatePromotion(t.db, String(id), NOW)
  const second = await duplicatePromotion(t.db, String(id), NOW)
  expect(await getPromotion(t.db, first.id)).toMatchObject({
    name: 'Verano (copia)',
    code: 'VERANO-COPIA',
    active: false,
  })
  expect(await getPromotion(t.db, second.id)).toMatchObject({ code: 'VERANO-COPIA2', active: false })
  const automatic = await createPromotion(t.db, form({ name: 'Auto', kind: 'automatica' }), NOW)
  expect(
    await getPromotion(t.db, (await duplicatePromotion(t.db, String(automatic.id), NOW)).id),
  ).toMatchObject({
    code: null,
    name: 'Auto (copia)',
  })
  const long = await createPromotion(t.db, form({ code: 'L'.repeat(40) }), NOW)
  expect((await getPromotion(t.db, (await duplicatePromotion(t.db, String(long.id), NOW)).id))?.code).toBe(
    `${'L'.repeat(34)}-COPIA`,
  )
  // A second copy of a long code is cut shorter for its longer suffix, and still finds a free one.
  expect((await getPromotion(t.db, (await duplicatePromotion(t.db, String(long.id), NOW)).id))?.code).toBe(
    `${'L'.repeat(33)}-COPIA2`,
  )
  expect((await getPromotion(t.db, (await duplicatePromotion(t.db, String(long.id), NOW)).id))?.code).toBe(
    `${'L'.repeat(33)}-COPIA3`,
  )
  expect(copyName('x'.repeat(80))).toHaveLength(80)
})

test('pause, resume and end now; an ended one is not resumed', async () => {
  const { id } = await createPromotion(t.db, form({ code: 'PAUSA', startsAt: '2026-12-01T00:00' }), NOW)
  const stateNow = async () => (await listPromotions(t.db, NOW)).find((p) => p.id === id)!.state
  expect(await stateNow()).toBe('programada')
  expect(await pausePromotion(t.db, String(id), NOW)).toEqual({ name: 'Bienvenida' })
  expect(await stateNow()).toBe('pausada')
  await resumePromotion(t.db, String(id), NOW)
  expect(await stateNow()).toBe('programada')
  // Ending one that has not started: it never runs, its start is not after its end.
  await endPromotionNow(t.db, String(id), NOW)
  expect(await getPromotion(t.db, id)).toMatchObject({ startsAt: NOW, endsAt: NOW })
  expect(await stateNow()).toBe('vencida')
  await expect(resumePromotion(t.db, String(id), NOW)).rejects.toThrow(
    PROMOTION_MESSAGES.alreadyEnded('Bienvenida'),
  )
  await expect(pausePromotion(t.db, '0', NOW)).rejects.toThrow(PROMOTION_MESSAGES.notFound)
  expect(await t.db.select().from(promotions).where(eq(promotions.id, 0))).toEqual([])
})
