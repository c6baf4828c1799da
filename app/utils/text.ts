const NUL = String.fromCharCode(0)
/** A UTF-16 half without its partner: JSON allows it, PostgreSQL's jsonb refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** Whether PostgreSQL would refuse the text (in a value or a query parameter) for a NUL in it. */
export function hasNul(value: string): boolean {
  return value.includes(NUL)
}

/**
 * Text as PostgreSQL stores it: no NUL (refused in any text), no lone surrogate (replaced by
 * U+FFFD). For text from outside that is kept rather than refused: a provider's payload or error,
 * a shopper's checkout fields.
 */
export function cleanText(value: string): string {
  return value.replaceAll(NUL, '').replace(LONE_SURROGATE, '\ufffd')
}

/**
 * Lowercase without accents, so "corazon" finds "Corazón". Typed searches are cleaned too: a NUL
 * in a query would make PostgreSQL refuse the whole statement.
 */
export function normalizeSearchText(text: string): string {
  return cleanText(text)
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim()
}

/** A LIKE pattern for "contains `text`": the text's own `%`, `_` and backslash match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
