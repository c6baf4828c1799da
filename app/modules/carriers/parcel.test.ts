import { describe, expect, test } from 'vitest'
import { parcelFor, type PackedLine } from './parcel.ts'

/** The one box an order travels in: its weight, and the largest item's footprint stacked high. */

const DEFAULTS = { weightGrams: 300, lengthCm: 20, widthCm: 15, heightCm: 8 }
const NONE = { weightGrams: null, lengthCm: null, widthCm: null, heightCm: null }

const line = (quantity: number, size: Partial<PackedLine['size']> = {}): PackedLine => ({
  quantity,
  size: { ...NONE, ...size },
})

describe('parcelFor', () => {
  test('the weight of every unit is summed; the declared value goes with the box', () => {
    const parcel = parcelFor(
      [line(3, { weightGrams: 120, lengthCm: 5, widthCm: 4, heightCm: 1 }), line(2, { weightGrams: 45 })],
      DEFAULTS,
      12_500_000,
    )
    expect(parcel.weightGrams).toBe(3 * 120 + 2 * 45)
    expect(parcel.declaredValue).toBe(12_500_000)
  })

  test('each measure a product lacks is the default package’s', () => {
    // No weight: 300 g each; no measures: the default box's.
    expect(parcelFor([line(2)], DEFAULTS, 0)).toEqual({
      weightGrams: 600,
      lengthCm: 20,
      widthCm: 15,
      heightCm: 16,
      declaredValue: 0,
    })
    // Only the weight missing.
    expect(parcelFor([line(1, { lengthCm: 10, widthCm: 6, heightCm: 9 })], DEFAULTS, 0)).toEqual({
      weightGrams: 300,
      lengthCm: 10,
      widthCm: 6,
      heightCm: 9,
      declaredValue: 0,
    })
  })

  test('as long and as wide as the largest item, each side on its own', () => {
    const parcel = parcelFor(
      [
        line(1, { weightGrams: 100, lengthCm: 35, widthCm: 4, heightCm: 10 }),
        line(1, { weightGrams: 100, lengthCm: 12, widthCm: 22, heightCm: 10 }),
      ],
      DEFAULTS,
      0,
    )
    expect(parcel).toMatchObject({ lengthCm: 35, widthCm: 22 })
  })

  test('the items’ heights stack, every unit, never lower than the default box', () => {
    const tall = parcelFor(
      [
        line(3, { weightGrams: 50, lengthCm: 5, widthCm: 5, heightCm: 2 }),
        line(1, { weightGrams: 50, lengthCm: 5, widthCm: 5, heightCm: 4 }),
      ],
      DEFAULTS,
      0,
    )
    expect(tall.heightCm).toBe(3 * 2 + 4)
    // One flat item (1 cm) still ships in a box of the default height.
    const flat = parcelFor([line(1, { weightGrams: 20, lengthCm: 5, widthCm: 5, heightCm: 1 })], DEFAULTS, 0)
    expect(flat.heightCm).toBe(8)
    // A missing height stacks as the default's.
    const mixed = parcelFor([line(1, { weightGrams: 20, heightCm: 3 }), line(1)], DEFAULTS, 0)
    expect(mixed.heightCm).toBe(3 + 8)
  })

  test('no lines, or only empty ones, is the default box', () => {
    expect(parcelFor([], DEFAULTS, 5_000_00)).toEqual({ ...DEFAULTS, declaredValue: 5_000_00 })
    expect(
      parcelFor([line(0, { weightGrams: 900, lengthCm: 50, widthCm: 50, heightCm: 50 })], DEFAULTS, 0),
    ).toEqual({ ...DEFAULTS, declaredValue: 0 })
  })

  test('a line with no units adds nothing to a box with others', () => {
    const parcel = parcelFor(
      [
        line(0, { weightGrams: 900, lengthCm: 50, widthCm: 50, heightCm: 50 }),
        line(1, { weightGrams: 100, lengthCm: 10, widthCm: 10, heightCm: 10 }),
      ],
      DEFAULTS,
      0,
    )
    expect(parcel).toEqual({ weightGrams: 100, lengthCm: 10, widthCm: 10, heightCm: 10, declaredValue: 0 })
  })
})
