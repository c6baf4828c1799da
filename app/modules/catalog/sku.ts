const SKU_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

function prefix(text: string, fallback: string): string {
  const letters = text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^a-zA-Z0-9]/g, '')
    .slice(0, 3)
    .toUpperCase()
  return letters || fallback
}

/**
 * Spec §9: first 3 letters of the name, first 3 of the first category id (or GEN), and 8
 * upper-case random characters, joined by dashes. Accents are dropped so the sku is URL-safe.
 */
export function generateSku(
  name: string,
  firstCategoryId: string | undefined,
  random: () => number = Math.random,
): string {
  let tail = ''
  for (let i = 0; i < 8; i++) tail += SKU_ALPHABET[Math.floor(random() * SKU_ALPHABET.length)]
  return `${prefix(name, 'PRO')}-${firstCategoryId ? prefix(firstCategoryId, 'GEN') : 'GEN'}-${tail}`
}
