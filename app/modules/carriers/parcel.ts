import type { PackageSize } from '#app/modules/settings/settings.server.ts'
import type { Parcel } from './provider.ts'

/** One line of an order or cart: how many, and the product's own measures (null: the default's). */
export type PackedLine = {
  quantity: number
  size: {
    weightGrams: number | null
    lengthCm: number | null
    widthCm: number | null
    heightCm: number | null
  }
}

/**
 * One box for the whole order: the weight of every unit, and a box as long and wide as the largest
 * item and as high as the items' heights stacked (accessories travel stacked in one small box).
 * Each measure a product lacks is the shop's default package's.
 */
export function parcelFor(
  lines: readonly PackedLine[],
  defaults: PackageSize,
  declaredValue: number,
): Parcel {
  let weightGrams = 0
  let lengthCm = 0
  let widthCm = 0
  let stackedCm = 0
  for (const { quantity, size } of lines) {
    if (quantity <= 0) continue
    weightGrams += quantity * (size.weightGrams ?? defaults.weightGrams)
    lengthCm = Math.max(lengthCm, size.lengthCm ?? defaults.lengthCm)
    widthCm = Math.max(widthCm, size.widthCm ?? defaults.widthCm)
    stackedCm += quantity * (size.heightCm ?? defaults.heightCm)
  }
  if (weightGrams === 0) return { ...defaults, declaredValue }
  return {
    weightGrams,
    lengthCm,
    widthCm,
    // Never less than the default box's height: an item that small still ships in a box.
    heightCm: Math.max(stackedCm, defaults.heightCm),
    declaredValue,
  }
}
