import { describe, expect, test } from 'vitest'
import { placeHistory, type UnplacedMovement } from './history.ts'
import { applyMovement, EMPTY_STOCK, type StockState } from './movements.ts'
import { DEFAULT_LOCATION } from './locations.ts'

const entry = (quantity: number, unitPrice = 1000): UnplacedMovement => ({ type: 'in', quantity, unitPrice })
const exit = (quantity: number, unitPrice = 1000): UnplacedMovement => ({ type: 'out', quantity, unitPrice })
const A = 'P1-C1-A1-E1-X1-Y1-Z1'
const B = 'P2-C1-A1-E1-X1-Y1-Z1'

/** Replays placed movements with the stock rules: throws where one would be refused. */
function replay(movements: ReturnType<typeof placeHistory>): StockState {
  let state = EMPTY_STOCK
  for (const movement of movements!) {
    const applied = applyMovement(state, movement)
    if (!applied.ok) throw new Error(applied.message)
    state = applied.state
  }
  return state
}

describe('placeHistory', () => {
  test('a history ends exactly at the final locations, every exit taking units that are there', () => {
    const history = [entry(10), exit(4), entry(6), exit(7), entry(3)]
    const placed = placeHistory(
      history,
      new Map([
        [A, 5],
        [B, 3],
      ]),
    )
    const state = replay(placed)
    expect(Object.fromEntries(state.locations)).toEqual({ [A]: 5, [B]: 3 })
    expect([state.stock, state.unitsIn, state.unitsOut]).toEqual([8, 19, 11])
  })

  test('an entry is split by location only when no single location can have received it', () => {
    const placed = placeHistory(
      [entry(8)],
      new Map([
        [A, 5],
        [B, 3],
      ]),
    )!
    expect(placed.map((m) => [m.location, m.quantity]).sort()).toEqual([
      [A, 5],
      [B, 3],
    ])
    expect(placeHistory([entry(5), exit(5), entry(2)], new Map([[A, 2]]))!.map((m) => m.location)).toEqual([
      A,
      A,
      A,
    ])
  })

  test('a product sold out ends with no location; its movements use the default location', () => {
    const placed = placeHistory([entry(4), exit(4)], new Map())!
    expect(placed.map((m) => m.location)).toEqual([DEFAULT_LOCATION, DEFAULT_LOCATION])
    expect(replay(placed).locations.size).toBe(0)
  })

  test('a history that takes out more than was in, or does not add up to the locations, has no placing', () => {
    expect(placeHistory([exit(1), entry(1)], new Map())).toBeNull()
    expect(placeHistory([entry(3)], new Map([[A, 2]]))).toBeNull()
    expect(placeHistory([entry(3)], new Map([[A, 4]]))).toBeNull()
  })
})
