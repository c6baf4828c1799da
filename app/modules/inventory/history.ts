import { DEFAULT_LOCATION } from './locations.ts'
import type { Movement } from './movements.ts'

/** A past entry or exit whose location was never recorded (the original shop kept none per movement). */
export type UnplacedMovement = Omit<Movement, 'location'>

/**
 * Gives each past movement a location so that replaying them in order (`applyMovement`) never takes
 * units from a location that lacks them and ends exactly at `finalLocations`. It walks the history
 * backwards from the final locations: an exit put back goes to the location holding the most units
 * (so the entries before it come from one place as often as possible), an entry taken back comes
 * from the locations that hold units, largest first, and is split into one movement per location
 * when no single one holds it all. Null when the history cannot end there: at some point it takes
 * out more units than were in, or its totals differ from the final locations'.
 */
export function placeHistory<T extends UnplacedMovement>(
  movements: readonly T[],
  finalLocations: ReadonlyMap<string, number>,
): (T & { location: string })[] | null {
  const held = new Map([...finalLocations].filter(([, units]) => units > 0))
  const fallback = [...finalLocations.keys()].sort()[0] ?? DEFAULT_LOCATION
  const largestFirst = () =>
    [...held].sort(([codeA, a], [codeB, b]) => (b !== a ? b - a : codeA.localeCompare(codeB)))
  const placed: (T & { location: string })[] = []
  for (let i = movements.length - 1; i >= 0; i--) {
    const movement = movements[i]!
    if (movement.type === 'out') {
      const location = largestFirst()[0]?.[0] ?? fallback
      held.set(location, (held.get(location) ?? 0) + movement.quantity)
      placed.push({ ...movement, location })
      continue
    }
    const ranked = largestFirst()
    const whole = ranked.find(([, units]) => units >= movement.quantity)
    const sources = whole ? [whole] : ranked
    let missing = movement.quantity
    const parts: (T & { location: string })[] = []
    for (const [location, units] of sources) {
      if (missing === 0) break
      const quantity = Math.min(units, missing)
      if (units === quantity) held.delete(location)
      else held.set(location, units - quantity)
      parts.push({ ...movement, quantity, location })
      missing -= quantity
    }
    if (missing > 0) return null
    // Backwards, so the parts go in reverse too: forwards, the largest location is filled last.
    placed.push(...parts)
  }
  if (held.size > 0) return null
  return placed.reverse()
}
