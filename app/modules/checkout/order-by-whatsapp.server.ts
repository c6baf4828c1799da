import { inArray } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { formatCOP } from '#app/utils/money.ts'

/**
 * "Hacer este pedido por WhatsApp", for an order a hold limit refused (a reseller's): the message the
 * shop's chat opens with, the cart written out (names as the catalogue has them) and the total the
 * summary showed, so nothing is typed again. Worded on the server: none of it is in the page's
 * JavaScript.
 */
export async function orderByWhatsappText(
  db: DbOrTx,
  lines: readonly { sku: string; quantity: number }[],
  total: number,
): Promise<string> {
  const skus = [...new Set(lines.map((line) => line.sku))]
  const rows = skus.length
    ? await db
        .select({ sku: products.sku, name: products.name })
        .from(products)
        .where(inArray(products.sku, skus))
    : []
  const names = new Map(rows.map((row) => [row.sku, row.name]))
  const written = lines
    .filter((line) => names.has(line.sku))
    .map((line) => `- ${names.get(line.sku)} × ${line.quantity}`)
  return ['Hola, quiero hacer este pedido:', ...written, `Total: ${formatCOP(total)}`].join('\n')
}
