import { expect, test } from 'vitest'
import { pagePurchase } from './events.server.ts'

const now = new Date('2026-11-24T12:00:00Z')
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000)
const order = {
  number: 1042,
  status: 'pendiente de pago',
  paymentMethod: 'acordar',
  createdAt: minutesAgo(1),
  total: 90_000_00,
  items: [{ productSku: 'COL-1', quantity: 2 }],
}

test('a cash-on-delivery order just placed gives the success page its Purchase', () => {
  expect(pagePurchase(order, now)).toEqual({
    eventId: '1042',
    data: { currency: 'COP', value: 90_000, content_ids: ['COL-1'], content_type: 'product', num_items: 2 },
  })
})

test('an online order gives one only once Mercado Pago paid it', () => {
  const online = { ...order, paymentMethod: 'mercadopago' }
  expect(pagePurchase(online, now)).toBeNull()
  expect(pagePurchase({ ...online, status: 'cancelado' }, now)).toBeNull()
  expect(pagePurchase({ ...online, status: 'pagado', createdAt: minutesAgo(600) }, now)?.eventId).toBe('1042')
  expect(pagePurchase({ ...online, status: 'Completado' }, now)?.eventId).toBe('1042')
})

test('an old link or a cancelled cash-on-delivery order gives none', () => {
  expect(pagePurchase({ ...order, createdAt: minutesAgo(61) }, now)).toBeNull()
  expect(pagePurchase({ ...order, status: 'cancelado' }, now)).toBeNull()
})
