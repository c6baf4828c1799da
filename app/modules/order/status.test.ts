import { expect, test } from 'vitest'
import { Refusal } from '#app/utils/refusal.ts'
import {
  assertTransition,
  canTransition,
  ORDER_STATUSES,
  TransitionRefused,
  type OrderStatus,
} from './status.ts'

test('the statuses are the spec ones, spelled as it spells them', () => {
  expect(ORDER_STATUSES).toEqual(['pendiente de pago', 'pagado', 'cancelado', 'Completado'])
})

const allowed: [OrderStatus, OrderStatus][] = [
  ['pendiente de pago', 'pagado'],
  ['pendiente de pago', 'cancelado'],
  ['pendiente de pago', 'Completado'],
  ['pagado', 'cancelado'],
  ['pagado', 'Completado'],
]

test.each(allowed)('%s → %s is allowed', (from, to) => {
  expect(canTransition(from, to)).toBe(true)
  expect(() => assertTransition(from, to)).not.toThrow()
})

const refused = ORDER_STATUSES.flatMap((from) =>
  ORDER_STATUSES.map((to) => [from, to] as [OrderStatus, OrderStatus]),
).filter(([from, to]) => !allowed.some(([a, b]) => a === from && b === to))

test('every other pair is refused, staying in the same status too', () => {
  expect(refused).toHaveLength(16 - allowed.length)
  expect(refused).toContainEqual(['pagado', 'pendiente de pago'])
  expect(refused).toContainEqual(['cancelado', 'pagado'])
  expect(refused).toContainEqual(['Completado', 'cancelado'])
  expect(refused).toContainEqual(['pagado', 'pagado'])
})

test.each(refused)('%s → %s is refused with a Spanish message and 409', (from, to) => {
  expect(canTransition(from, to)).toBe(false)
  let thrown: unknown
  try {
    assertTransition(from, to)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(TransitionRefused)
  expect(thrown).toBeInstanceOf(Refusal)
  expect(thrown).toMatchObject({
    message: `No se puede cambiar el estado del pedido de "${from}" a "${to}".`,
    status: 409,
  })
})
