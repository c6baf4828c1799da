import { and, eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { Database } from '#app/db/client.server.ts'
import { clickCounts, pageViews } from '#app/modules/analytics/schema.ts'
import { categories, products } from '#app/modules/catalog/schema.ts'
import { orders } from '#app/modules/order/schema.ts'
import { createTestDatabase } from '#tests/db.ts'
import { isSpanishMessage } from '#tests/fuzz.ts'
import { generateOriginalExport, ourWords } from '#tests/import-fixture.ts'
import { memoryStorage } from '#tests/media.ts'
import { importOriginalShop, type ImportReport } from './import.server.ts'
import type { ExportDocuments, IssueKind } from './plan.ts'

/**
 * Issue 23: one hostile record of each kind is refused in the report with a Spanish reason, and
 * everything else of the same export (of its own kind and of the others) is imported. Each of
 * these records failed the whole import before (a PostgreSQL error or a stack overflow) or came in
 * past what the shop's own forms and columns take.
 */

const offline = { download: async () => ({ ok: false as const, reason: 'sin red en la prueba' }) }
const fixture = generateOriginalExport({ products: 12, orders: 6, mediaBase: 'http://127.0.0.1:1/o' })
const expected = fixture.expected
type Source = Record<string, unknown>
const block = (source: Source) =>
  (source['productos/productos_bloque_1'] as { productos: Record<string, unknown>[] }).productos
const pedidos = (source: Source) => source.pedidos as Record<string, Record<string, unknown>>

let database: Database
beforeEach(async () => {
  database = await createTestDatabase()
})
afterEach(() => database.close())

const run = (source: unknown) =>
  importOriginalShop({ db: database.db, storage: memoryStorage(), remote: offline }, source)

/** The one refusal, of this kind, worded in Spanish (the export's own text quoted in it aside). */
function expectRefusedAlone(report: ImportReport, kind: IssueKind, reason: RegExp) {
  expect(report.refused).toEqual([{ kind, key: expect.any(String), reason: expect.stringMatching(reason) }])
  const [refusal] = report.refused
  expect(isSpanishMessage(ourWords(refusal!.reason)), refusal!.reason).toBe(true)
  expect(refusal!.key.length).toBeLessThanOrEqual(121)
}

/**
 * What the export holds besides the hostile record, imported: counts and rows (`clickMonthsHere`:
 * months of clicks Vitrina had already).
 */
async function expectTheRestImported(
  report: ImportReport,
  less: Partial<Record<string, number>> = {},
  clickMonthsHere = 0,
) {
  const want = {
    categories: expected.categories - (less.categories ?? 0),
    products: expected.products.length - (less.products ?? 0),
    orders: expected.orders.length - (less.orders ?? 0),
    clickMonths: expected.months.length - (less.clickMonths ?? 0),
    pageViewMonths: expected.months.length - (less.pageViewMonths ?? 0),
  }
  expect(report.imported).toMatchObject(want)
  const { db } = database
  expect(await db.$count(categories)).toBe(want.categories)
  expect(await db.$count(products)).toBe(want.products)
  expect(await db.$count(orders)).toBe(want.orders)
  const months = async (table: typeof clickCounts | typeof pageViews) =>
    new Set((await db.select({ month: table.month }).from(table)).map((row) => row.month)).size
  expect(await months(clickCounts)).toBe(want.clickMonths + clickMonthsHere)
  expect(await months(pageViews)).toBe(want.pageViewMonths)
}

describe('one hostile record is refused with the reason, the rest is imported', () => {
  test('documento: a key the streamed file repeats is read once', async () => {
    // A streamed export can repeat a key (JSON.parse would keep one): the orders came twice.
    async function* documents(): ExportDocuments {
      for (const [key, document] of Object.entries(fixture.source)) yield [key, document]
      yield ['pedidos', fixture.source.pedidos]
    }
    const report = await run(documents())
    expectRefusedAlone(report, 'documento', /^Esta clave aparece más de una vez en la exportación/)
    await expectTheRestImported(report)
  })

  test('categoría: a NUL in its name (PostgreSQL refuses it in any text)', async () => {
    const source = structuredClone(fixture.source)
    const list = (source['productos/categorias'] as { categorias: Record<string, unknown>[] }).categorias
    list.push({ id: 'Categoria_nul', nombre: 'Aretes\u0000largos' })
    const report = await run(source)
    expectRefusedAlone(report, 'categoría', /carácter nulo/)
    await expectTheRestImported(report)
  })

  test('producto: a lone UTF-16 surrogate in its name (PostgreSQL refuses it in JSON)', async () => {
    const source = structuredClone(fixture.source)
    // A product with no ledger and no stock, so nothing else depends on it.
    const hostile = structuredClone(block(source)[0]!)
    Object.assign(hostile, { sku: 'MAL-GEN-00000001', name: 'Collar \ud800', stock: 0, ubicaciones: [] })
    block(source).push(hostile)
    const report = await run(source)
    expectRefusedAlone(report, 'producto', /Unicode incompleto/)
    await expectTheRestImported(report)
  })

  test('movimientos: a movement dated in the year 275760 (past PostgreSQL timestamps)', async () => {
    const source = structuredClone(fixture.source)
    // A product with a ledger that no order names, so its refusal refuses nothing else.
    const product = expected.products.find(
      (p) => p.movements > 0 && !expected.orders.some((o) => o.items.some((item) => item.sku === p.sku)),
    )!
    const ledger = (source[`movimientos/${product.sku}`] as { movimientos: Record<string, unknown>[] })
      .movimientos
    ledger[0]!.createdAt = 8.64e15
    const report = await run(source)
    expectRefusedAlone(
      report,
      'producto',
      /^El movimiento 1 no es válido \(createdAt: no es una fecha válida entre 2000 y 2100\)/,
    )
    await expectTheRestImported(report, { products: 1 })
  })

  test('pedido: the same id once in "pedidos" and again as its own key', async () => {
    const source = structuredClone(fixture.source)
    const [id] = Object.keys(pedidos(source))
    source[`pedidos/${id}`] = structuredClone(pedidos(source)[id!])
    const report = await run(source)
    expectRefusedAlone(report, 'pedido', /^Id repetido en la exportación: se importó el primero\.$/)
    await expectTheRestImported(report)
  })

  test('clics: a month whose count, added to the one Vitrina has, passes the integer column', async () => {
    const [month] = expected.months
    await database.db
      .insert(clickCounts)
      .values({ month: month!, elementName: 'boton-whatsapp', clickCount: 2_147_483_000 })
    const source = structuredClone(fixture.source)
    ;(source[`clickEvents/${month}`] as Record<string, { click_count: number }>)[
      'boton-whatsapp'
    ]!.click_count = 1_000
    const report = await run(source)
    expectRefusedAlone(report, 'clics', /^Elemento "boton-whatsapp": Vitrina ya cuenta 2147483000 clics/)
    // The month refused keeps the row Vitrina had; the other months come over.
    const [kept] = await database.db
      .select()
      .from(clickCounts)
      .where(and(eq(clickCounts.elementName, 'boton-whatsapp'), eq(clickCounts.month, month!)))
    expect(kept!.clickCount).toBe(2_147_483_000)
    await expectTheRestImported(report, { clickMonths: 1 }, 1)
  })

  test('visitas: 1e308 seconds (past the bigint column)', async () => {
    const source = structuredClone(fixture.source)
    const [month] = expected.months
    ;(source[`pageViews/${month}`] as Record<string, { totalTime: number }>).Inicio!.totalTime = 1e308
    const report = await run(source)
    expectRefusedAlone(report, 'visitas', /^"Inicio"\.totalTime: es demasiado grande$/)
    await expectTheRestImported(report, { pageViewMonths: 1 })
  })

  test('visitas: a page record 100,000 levels deep (the digest would overflow the stack)', async () => {
    const source = structuredClone(fixture.source)
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i++) deep = { a: deep }
    const [month] = expected.months
    ;(source[`pageViews/${month}`] as Record<string, unknown>).Inicio = {
      visits: 1,
      totalTime: 2,
      extra: deep,
    }
    const report = await run(source)
    expectRefusedAlone(report, 'visitas', /^Tiene más de 8 niveles de anidación/)
    await expectTheRestImported(report, { pageViewMonths: 1 })
  })
})
