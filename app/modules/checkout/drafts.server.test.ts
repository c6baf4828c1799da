import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { placeTestOrder } from '#tests/orders.ts'
import { createPromotion } from '#tests/promotions.ts'
import {
  keepCheckoutDraft,
  listCheckoutDrafts,
  openCheckoutDraft,
  purgeCheckoutDrafts,
  settleCheckoutDraft,
} from './drafts.server.ts'
import { ABANDONED_AFTER_MINUTES, DRAFT_KEPT_DAYS } from './drafts.ts'
import { checkoutDrafts } from './schema.ts'

/** Checkouts begun and not finished, on a real database. Each test uses phones of its own. */
const t = setupTestDatabase()
const MINUTE = 60_000
const ago = (minutes: number, from = new Date()) => new Date(from.getTime() - minutes * MINUTE)

const draftOf = async (phone: string) =>
  t.db.select().from(checkoutDrafts).where(eq(checkoutDrafts.phone, phone))

test('kept only with a usable phone, the authorization and a cart; one open draft per phone, updated', async () => {
  const product = await createProduct(t.db, { stock: 5 })
  const lines = [{ sku: product.sku, quantity: 2 }]
  const base = { name: 'Ana', email: 'ana@example.com', consent: true, lines }

  expect(await keepCheckoutDraft(t.db, { ...base, phone: '123' })).toBe('ignored')
  expect(await keepCheckoutDraft(t.db, { ...base, phone: '3001110001', consent: false })).toBe('ignored')
  expect(await keepCheckoutDraft(t.db, { ...base, phone: '3001110001', lines: [] })).toBe('ignored')
  expect(
    await keepCheckoutDraft(t.db, { ...base, phone: '3001110001', lines: [{ sku: 'X', quantity: 0 }] }),
  ).toBe('ignored')
  // A cart its recovery link could not give back whole (too big for the cart's cookie) is not kept.
  const tooBig = Array.from({ length: 40 }, (_, n) => ({ sku: `${'X'.repeat(100)}-${n}`, quantity: 1 }))
  expect(await keepCheckoutDraft(t.db, { ...base, phone: '3001110001', lines: tooBig })).toBe('ignored')
  expect(await draftOf('3001110001')).toEqual([])

  // "+57 300 111 0001" and "3001110001" are one phone: one draft, the later typing wins.
  expect(await keepCheckoutDraft(t.db, { ...base, phone: '+57 300 111 0001' })).toBe('kept')
  const [first] = await draftOf('3001110001')
  expect(first).toMatchObject({ name: 'Ana', email: 'ana@example.com', lines })
  expect(
    await keepCheckoutDraft(t.db, {
      ...base,
      phone: '3001110001',
      name: '  Ana María ',
      lines: [{ ...lines[0]!, quantity: 3 }],
    }),
  ).toBe('kept')
  const [second] = await draftOf('3001110001')
  expect(second).toMatchObject({
    id: first!.id,
    token: first!.token,
    name: 'Ana María',
    lines: [{ sku: product.sku, quantity: 3 }],
  })

  // Unticking the authorization forgets it.
  expect(await keepCheckoutDraft(t.db, { ...base, phone: '3001110001', consent: false })).toBe('forgotten')
  expect(await draftOf('3001110001')).toEqual([])
})

test('an order by the same phone: recovered when the checkout had been left or its link opened, else it goes', async () => {
  const product = await createProduct(t.db, { stock: 20 })
  const lines = [{ sku: product.sku, quantity: 1 }]
  const keep = (phone: string, at: Date) =>
    keepCheckoutDraft(t.db, { phone, name: 'Luis', email: '', consent: true, lines }, at)
  const order = (phone: string) => placeTestOrder(t.db, { sku: product.sku, quantity: 1, phone })

  // Still being typed when the order came: it was this order's own form.
  await keep('3001110002', ago(2))
  await order('3001110002')
  expect(await draftOf('3001110002')).toEqual([])

  // Left for over half an hour: the order that follows recovers it.
  await keep('3001110003', ago(ABANDONED_AFTER_MINUTES + 1))
  const recovered = await order('3001110003')
  expect(await draftOf('3001110003')).toMatchObject([{ orderId: recovered.id }])

  // Typed a minute ago, but the shop's link was opened: recovered too.
  await keep('3001110004', ago(1))
  const [draft] = await draftOf('3001110004')
  expect(await openCheckoutDraft(t.db, draft!.token)).toEqual(lines)
  const viaLink = await order('3001110004')
  expect(await draftOf('3001110004')).toMatchObject([{ orderId: viaLink.id }])

  // The form's last change reaching the shop after its order is no checkout left.
  expect(await keep('3001110002', new Date())).toBe('ignored')
  expect(await draftOf('3001110002')).toEqual([])

  // A recovered draft is closed: the next checkout by that phone, later on, opens a new one.
  expect(await keep('3001110003', ago(-(ABANDONED_AFTER_MINUTES + 1)))).toBe('kept')
  expect(await draftOf('3001110003')).toHaveLength(2)

  // settleCheckoutDraft without a draft is nothing.
  await t.db.transaction((tx) => settleCheckoutDraft(tx, '3009999999', recovered.id))
})

test('the list: left checkouts newest first with today’s prices, recent ones on request, recovered with their order', async () => {
  const now = new Date('2043-03-10T15:00:00Z')
  const product = await createProduct(t.db, { stock: 9, name: 'Collar Lista', pesos: 40_000 })
  // Running that day: the total is what the cart would cost, its promotion applied.
  await createPromotion(t.db, {
    percent: 10,
    startsAt: new Date('2043-03-01T05:00:00Z'),
    endsAt: new Date('2043-03-31T05:00:00Z'),
  })
  const lines = [
    { sku: product.sku, quantity: 2 },
    { sku: 'BORRADO-1', quantity: 1 },
  ]
  const keep = (phone: string, at: Date) =>
    keepCheckoutDraft(t.db, { phone, name: 'Eva', email: 'eva@example.com', consent: true, lines }, at)
  await keep('3001110011', ago(45, now))
  await keep('3001110012', ago(5, now))
  await keep('3001110013', ago(60 * 24, now))

  const listed = (await listCheckoutDrafts(t.db, { now })).filter((row) => row.phone.startsWith('30011100'))
  expect(listed.map((row) => row.phone)).toEqual(['3001110011', '3001110013'])
  expect(listed[0]).toMatchObject({
    name: 'Eva',
    items: [
      { sku: product.sku, name: 'Collar Lista', quantity: 2, unitPrice: 40_000_00 },
      // A product no longer sold keeps its line, named by its sku, without a price.
      { sku: 'BORRADO-1', name: 'BORRADO-1', quantity: 1, unitPrice: null },
    ],
    total: 72_000_00,
    order: null,
    linkOpenedAt: null,
  })
  const withRecent = await listCheckoutDrafts(t.db, { now, includeRecent: true })
  expect(withRecent.map((row) => row.phone)).toContain('3001110012')
})

test('the recovery link: the cart back, once noted as opened; unknown, malformed or over 30 days: nothing', async () => {
  const product = await createProduct(t.db, { stock: 3 })
  const lines = [{ sku: product.sku, quantity: 1 }]
  const now = new Date()
  await keepCheckoutDraft(t.db, { phone: '3001110021', name: '', email: '', consent: true, lines }, now)
  const [draft] = await draftOf('3001110021')
  // A link preview (WhatsApp's, of the shop's message) gets the cart but is not the shopper opening it.
  expect(await openCheckoutDraft(t.db, draft!.token, { now, opened: false })).toEqual(lines)
  expect((await draftOf('3001110021'))[0]!.linkOpenedAt).toBeNull()
  expect(await openCheckoutDraft(t.db, draft!.token, { now })).toEqual(lines)
  const opened = (await draftOf('3001110021'))[0]!.linkOpenedAt
  expect(opened).toEqual(now)
  // Opened again later: the first time stays.
  await openCheckoutDraft(t.db, draft!.token, { now: ago(-10, now) })
  expect((await draftOf('3001110021'))[0]!.linkOpenedAt).toEqual(opened)

  expect(await openCheckoutDraft(t.db, 'no-existe-este-enlace')).toBeNull()
  expect(await openCheckoutDraft(t.db, "x' or 1=1 --")).toBeNull()
  expect(
    await openCheckoutDraft(t.db, draft!.token, { now: ago(-(DRAFT_KEPT_DAYS * 24 * 60 + 1), now) }),
  ).toBeNull()
})

test('purged once untouched for 30 days', async () => {
  const product = await createProduct(t.db, { stock: 3 })
  const lines = [{ sku: product.sku, quantity: 1 }]
  const now = new Date('2044-01-31T12:00:00Z')
  const keep = (phone: string, at: Date) =>
    keepCheckoutDraft(t.db, { phone, name: '', email: '', consent: true, lines }, at)
  await keep('3001110031', ago(DRAFT_KEPT_DAYS * 24 * 60 + 1, now))
  await keep('3001110032', ago(DRAFT_KEPT_DAYS * 24 * 60 - 1, now))
  const { purged } = await purgeCheckoutDrafts(t.db, now)
  expect(purged).toBeGreaterThanOrEqual(1)
  expect(await draftOf('3001110031')).toEqual([])
  expect(await draftOf('3001110032')).toHaveLength(1)
})
