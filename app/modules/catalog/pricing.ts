import { percentOf } from '#app/utils/money.ts'

/** Spec §9: level 2..5 are 80/70/60/40 % of level 1. */
export const PRICE_LEVEL_FACTORS = { 2: 0.8, 3: 0.7, 4: 0.6, 5: 0.4 } as const

export function priceLevelsFrom(level1: number) {
  return {
    priceLevel1: level1,
    priceLevel2: Math.round(level1 * PRICE_LEVEL_FACTORS[2]),
    priceLevel3: Math.round(level1 * PRICE_LEVEL_FACTORS[3]),
    priceLevel4: Math.round(level1 * PRICE_LEVEL_FACTORS[4]),
    priceLevel5: Math.round(level1 * PRICE_LEVEL_FACTORS[5]),
  }
}

/** Spec §5: level1 minus `discountPercent` percent of level1. */
export function discountedPrice(level1: number, discountPercent: number): number {
  if (discountPercent <= 0) return level1
  return level1 - percentOf(level1, Math.min(discountPercent, 100))
}

export const CARD_NAME_MAX = 14

/** Spec §5: names longer than 14 characters show their first 15 and "...". */
export function truncateName(name: string): string {
  return name.length > CARD_NAME_MAX ? `${name.slice(0, 15)}...` : name
}

/**
 * Spec §3 with the admin form's one exception: level 5 is editable, so a typed level 5 replaces
 * the computed 40 %. All in centavos (rounding to the centavo is rounding to 2 decimals).
 */
export function priceLevelsWith(level1: number, level5?: number) {
  const levels = priceLevelsFrom(level1)
  return level5 === undefined ? levels : { ...levels, priceLevel5: level5 }
}

/** The admin form's profit figure: price (level 1) minus cost. Negative when sold below cost. */
export function profitOf(level1: number, cost: number): number {
  return level1 - cost
}

/** Peso amounts as the admin form shows them: level n of a typed level 1, to 2 decimals. */
export function levelPesos(level1Pesos: number, factor: number): number {
  return Math.round(Math.round(level1Pesos * 100) * factor) / 100
}
