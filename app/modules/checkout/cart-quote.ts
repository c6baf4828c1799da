/**
 * What the promotions take off a cart, as the server priced it for the cart and checkout pages
 * (cart-quote.server.ts): safe for the browser bundle, and small, since the pages only show it.
 */
export type CartQuote = {
  /** The lines, code and shipping it was priced for (`cartQuoteKey`): a page trusts it only for exactly those. */
  key: string
  /** The code as kept (upper case), or null. */
  code: string | null
  /**
   * What became of the code, in the shopper's words ("Código LAURA10 aplicado.", or why it takes
   * nothing off: `quotePromotions`' refusal); null when none was typed.
   */
  codeOutcome: { applied: boolean; message: string } | null
  /** One row per promotion ("Cupón de Laura (LAURA10)"), lines and shipping together. */
  rows: { name: string; amount: number }[]
}

/** The lines (in the cart cookie's words), the code and the shipping before promotions. */
export function cartQuoteKey(
  lines: readonly { sku: string; quantity: number }[],
  code: string | null,
  shipping: number,
): string {
  const parts = lines.map((line) => `${encodeURIComponent(line.sku)}:${line.quantity}`).sort()
  return `${parts.join('|')}#${code ?? ''}#${shipping}`
}
