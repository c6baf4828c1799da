import { describe, expect, test } from 'vitest'
import { applyMovement, EMPTY_STOCK, type Movement, type StockState } from './movements.ts'

const A = 'P1-C1-A1-E1-X1-Y1-Z1'
const B = 'P1-C2-A1-E1-X1-Y1-Z1'

function apply(state: StockState, ...movements: Movement[]): StockState {
  return movements.reduce((current, movement) => {
    const result = applyMovement(current, movement)
    if (!result.ok) throw new Error(result.message)
    return result.state
  }, state)
}

const entry = (quantity: number, unitPrice: number, location = A): Movement => ({
  type: 'in',
  quantity,
  unitPrice,
  location,
})
const exit = (quantity: number, unitPrice: number, location = A): Movement => ({
  type: 'out',
  quantity,
  unitPrice,
  location,
})

describe('entry', () => {
  test('adds to stock, units in and a new location, at the weighted cost', () => {
    const first = apply(EMPTY_STOCK, entry(10, 2_000_000))
    expect(first).toEqual({
      stock: 10,
      cost: 2_000_000,
      unitsIn: 10,
      unitsOut: 0,
      locations: new Map([[A, 10]]),
    })
    // 10 × $20.000 + 5 × $26.000 over 15 = $22.000; a second location appears beside the first.
    expect(apply(first, entry(5, 2_600_000, B))).toEqual({
      stock: 15,
      cost: 2_200_000,
      unitsIn: 15,
      unitsOut: 0,
      locations: new Map([
        [A, 10],
        [B, 5],
      ]),
    })
  })

  test('into a location that exists adds to it', () => {
    expect(apply(EMPTY_STOCK, entry(2, 100), entry(3, 100)).locations).toEqual(new Map([[A, 5]]))
  })
})

describe('exit', () => {
  const stocked = apply(EMPTY_STOCK, entry(10, 2_000_000), entry(2, 2_000_000, B))

  test('takes from stock and the location, adds to units out, at the exit-price average', () => {
    // 12 × $20.000 − 4 × $17.000 = $172.000 over 8 = $21.500
    expect(apply(stocked, exit(4, 1_700_000))).toEqual({
      stock: 8,
      cost: 2_150_000,
      unitsIn: 12,
      unitsOut: 4,
      locations: new Map([
        [A, 6],
        [B, 2],
      ]),
    })
  })

  test('emptying a location removes it', () => {
    expect(apply(stocked, exit(2, 2_000_000, B)).locations).toEqual(new Map([[A, 10]]))
  })

  test('to zero stock leaves cost 0 and no locations', () => {
    expect(apply(stocked, exit(10, 2_000_000), exit(2, 2_000_000, B))).toEqual({
      stock: 0,
      cost: 0,
      unitsIn: 12,
      unitsOut: 12,
      locations: new Map(),
    })
  })

  test('refuses more than the stock, an unknown location, or more than the location holds', () => {
    expect(applyMovement(stocked, exit(13, 0))).toEqual({
      ok: false,
      message: 'No hay suficiente stock para la salida.',
    })
    const missing = 'P9-C1-A1-E1-X1-Y1-Z1'
    expect(applyMovement(stocked, exit(1, 0, missing))).toEqual({
      ok: false,
      message: `La ubicación ${missing} no existe.`,
    })
    expect(applyMovement(stocked, exit(3, 0, B))).toEqual({
      ok: false,
      message: `No hay suficiente stock en la ubicación ${B}.`,
    })
  })

  test('leaves the state it was given as it was', () => {
    const before = structuredClone(stocked)
    apply(stocked, exit(2, 2_000_000, B))
    expect(stocked).toEqual(before)
  })
})

test('quantities and prices are whole and not negative', () => {
  expect(() => applyMovement(EMPTY_STOCK, entry(0, 100))).toThrow(RangeError)
  expect(() => applyMovement(EMPTY_STOCK, entry(1.5, 100))).toThrow(RangeError)
  expect(() => applyMovement(EMPTY_STOCK, entry(1, -1))).toThrow(RangeError)
})
