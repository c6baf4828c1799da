/** Counts for the back office's reports (kept apart from money.ts, which the storefront loads). */

/**
 * Whole numbers the es-CO way ("1.234"), written by hand so server and browser agree (Node's and the
 * browser's ICU may group differently, and a hydrated page must read the same).
 */
export function formatCount(value: number): string {
  const whole = String(Math.round(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  return value < 0 && Math.round(value) !== 0 ? `-${whole}` : whole
}
