/**
 * A package's bounds, for a product's own "Empaque para envíos" and the shop's default package:
 * grams up to 50 kg, centimetres up to 2 m (what Colombian carriers take as one parcel).
 */
export const PARCEL_BOUNDS = {
  weightGrams: { min: 1, max: 50_000 },
  centimetres: { min: 1, max: 200 },
} as const
