import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Database } from '#app/db/client.server.ts'
import { MAX_NAME_LENGTH } from '#app/modules/analytics/validators.ts'
import { CategoryNameSchema, ProductFieldsSchema } from '#app/modules/catalog/validators.ts'
import { EntryFormSchema } from '#app/modules/inventory/validators.ts'
import { cleanText } from '#app/utils/text.ts'
import { createTestDatabase } from '#tests/db.ts'
import { FUZZ_RUNS, fuzzedObject, hostileJson, hostileText, isSpanishMessage } from '#tests/fuzz.ts'
import { ourWords } from '#tests/import-fixture.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import { importOriginalShop, ImportStopped } from './import.server.ts'
import { planImport, type ImportPlan } from './plan.ts'
import { CUSTOMER_FIELD_LIMITS } from '#app/modules/order/customer-fields.ts'
import { FIRST_YEAR, LAST_YEAR, MAX_ID_LENGTH, MAX_INTEGER } from './validators.ts'

/**
 * Issue 23, the import's inputs in the fuzz suite: random and hostile exports (any JSON at any
 * field of every kind of record, deep nesting, huge numbers, hostile texts, unknown documents).
 * `planImport` never throws, says every refusal and warning in Spanish, and plans only records
 * within Vitrina's bounds; a full import never throws but `ImportStopped` for a failing storage.
 */

const FUZZ_SEED = Number(process.env.FUZZ_SEED) > 0 ? Number(process.env.FUZZ_SEED) : 11
const NOW = new Date('2026-11-24T12:00:00Z')
const SKUS = ['COL-GEN-AAAA1111', 'ARE-GEN-BBBB2222'] as const

/** Any value where a record's field goes: a hostile text, any JSON, a huge or odd number. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  hostileJson,
  fc.double(),
  fc.constantFrom(1e308, -1e308, 2 ** 31, 2 ** 53, 8.64e15, 1e20, '1e308', '99999999999999999999'),
)
/** A record nested far past what the format needs (built in a loop: nothing recursive). */
const deep = fc.integer({ min: 9, max: 20_000 }).map((depth) => {
  let value: unknown = 'fondo'
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value }
  return value
})
/** A record: fields fuzzed from a good one, or something else entirely. */
const record = (good: fc.Arbitrary<Record<string, unknown>>) =>
  fc.oneof({ arbitrary: good, weight: 8 }, { arbitrary: anything, weight: 1 }, { arbitrary: deep, weight: 1 })
/**
 * An object as good as `base` half of the time, else with a field or two changed (`fuzzedObject`):
 * records nest three or four objects deep, and each must often be right for one to get through.
 */
const mostlyGood = (base: Record<string, unknown>, options: Record<string, readonly unknown[]> = {}) =>
  fc.oneof(fc.constant(base), fuzzedObject(base, options))

const key = fc.oneof(
  { arbitrary: hostileText, weight: 2 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 2 },
  { arbitrary: fc.constantFrom(...SKUS, 'Categoria_1', 'p1'), weight: 3 },
)
const month = fc.oneof(
  { arbitrary: fc.constantFrom('2025-01', '2025-02', '2031-12'), weight: 4 },
  { arbitrary: hostileText, weight: 1 },
)

const category = record(
  fuzzedObject(
    { id: 'Categoria_1', nombre: 'Collares', createdAt: '2025-01-01T00:00:00Z' },
    { id: [...SKUS] },
  ),
)
const location = mostlyGood({ ubicacion: 'P1-C1-A1-E1-X1-Y1-Z1', stock: 3 })
const product = record(
  fc
    .record({
      base: mostlyGood(
        {
          sku: SKUS[0],
          name: 'Collar',
          description: 'Un collar',
          cost: 1000,
          purchaseLink: 'https://proveedor.example/x',
          supplierInfo: 'Proveedor',
          categorias: ['Categoria_1'],
          imageUrls: ['https://cdn.example/o/a.jpg'],
          stock: 3,
          createdAt: 1_736_000_000_000,
          descuento: 10,
        },
        { sku: [...SKUS], stock: [0, 3] },
      ),
      priceLevels: record(mostlyGood({ level1: 5000, level2: 4000 })),
      ubicaciones: fc.oneof(
        { arbitrary: fc.constant([{ ubicacion: 'P1-C1-A1-E1-X1-Y1-Z1', stock: 3 }]), weight: 3 },
        { arbitrary: fc.array(record(location), { maxLength: 3 }), weight: 1 },
        { arbitrary: anything, weight: 1 },
      ),
    })
    .map(({ base, priceLevels, ubicaciones }) => ({ priceLevels, ubicaciones, ...base })),
)
const GOOD_ENTRY = {
  cantidad: 3,
  precioUnitario: 1000,
  total: 3000,
  tipo: 'Entrada',
  recibo: 'FAC-1',
  createdAt: '2025-01-01T00:00:00Z',
  nota: 'Compra',
}
const movement = record(mostlyGood(GOOD_ENTRY))
const order = record(
  fc
    .record({
      base: mostlyGood({ status: 'pagado', enviado: 'enviado', total: 5000, createdAt: 1_736_000_000_000 }),
      customer: record(
        mostlyGood({
          name: 'Ana',
          last_name: 'Pérez',
          identification_number: '1000',
          phone: '3001234567',
          email: 'ana@example.com',
          address: 'Calle 1',
          city: 'Bogotá',
          department: 'Bogotá D.C.',
          payment_method: 'acordar',
        }),
      ),
      items: fc.oneof(
        {
          arbitrary: fc.constant([{ id: SKUS[0], title: 'Collar', quantity: 1, unit_price: 5000 }]),
          weight: 2,
        },
        {
          arbitrary: fc.array(
            record(mostlyGood({ id: SKUS[0], title: 'Collar', quantity: 1, unit_price: 5000 })),
            {
              maxLength: 3,
            },
          ),
          weight: 2,
        },
        { arbitrary: anything, weight: 1 },
      ),
    })
    .map(({ base, customer, items }) => ({ customer_details: customer, items, ...base })),
)
const clicks = fc.oneof(
  fc.dictionary(key, record(mostlyGood({ click_count: 3 })), { maxKeys: 4 }),
  anything,
  deep,
)
const views = fc.oneof(
  fc.dictionary(key, record(mostlyGood({ visits: 3, totalTime: 40 })), { maxKeys: 4 }),
  anything,
  deep,
)

/** A whole export: every kind of document, sometimes unknown ones and documents of the wrong shape. */
const hostileExport = fc
  .record({
    categories: fc.oneof(fc.array(category, { maxLength: 3 }), anything),
    products: fc.oneof(
      { arbitrary: fc.array(product, { minLength: 1, maxLength: 3 }), weight: 4 },
      { arbitrary: anything, weight: 1 },
    ),
    ledgers: fc.dictionary(key, fc.oneof(fc.array(movement, { maxLength: 3 }), anything), { maxKeys: 3 }),
    // The ledgers of the products' own SKUs, usually the one that explains their 3 units.
    ownLedgers: fc.tuple(
      ...SKUS.map(() =>
        fc.oneof(
          { arbitrary: fc.constant([GOOD_ENTRY]), weight: 3 },
          { arbitrary: fc.array(movement, { maxLength: 3 }), weight: 2 },
          { arbitrary: anything, weight: 1 },
        ),
      ),
    ),
    orders: fc.dictionary(key, order, { maxKeys: 3 }),
    ownKeyOrders: fc.dictionary(key, order, { maxKeys: 2 }),
    clicks: fc.dictionary(month, clicks, { maxKeys: 2 }),
    views: fc.dictionary(month, views, { maxKeys: 2 }),
    unknown: fc.dictionary(hostileText, anything, { maxKeys: 2 }),
  })
  .map((parts) => {
    const source: Record<string, unknown> = {
      'productos/categorias': { categorias: parts.categories },
      'productos/productos_bloque_1': { productos: parts.products },
      pedidos: parts.orders,
    }
    SKUS.forEach((sku, index) => {
      source[`movimientos/${sku}`] = { movimientos: parts.ownLedgers[index] }
    })
    for (const [sku, list] of Object.entries(parts.ledgers))
      source[`movimientos/${sku}`] = { movimientos: list }
    for (const [id, value] of Object.entries(parts.ownKeyOrders)) source[`pedidos/${id}`] = value
    for (const [m, value] of Object.entries(parts.clicks)) source[`clickEvents/${m}`] = value
    for (const [m, value] of Object.entries(parts.views)) source[`pageViews/${m}`] = value
    for (const [name, value] of Object.entries(parts.unknown)) source[name] = value
    return source
  })

/**
 * `isSpanishMessage`, whose list of Spanish words lacks a few the report uses ("Estado
 * desconocido"), after taking out the export's own texts quoted in the reason.
 */
const IMPORT_WORDS = /\b(estado|desconocido|elemento|movimiento)\b/i
const spanish = (reason: string) => {
  const words = ourWords(reason)
  return (
    isSpanishMessage(words) || (IMPORT_WORDS.test(words) && isSpanishMessage(`${words} (de la exportación)`))
  )
}

const inYears = (date: Date) => date.getUTCFullYear() >= FIRST_YEAR && date.getUTCFullYear() <= LAST_YEAR
const integer = (value: number, max = MAX_INTEGER) => Number.isInteger(value) && value >= 0 && value <= max
const passes = (schema: { safeParse(value: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success

/** Every text of the plan as PostgreSQL stores it (no NUL, no half surrogate pair). */
function expectStorableTexts(value: unknown) {
  const stack = [value]
  while (stack.length) {
    const next = stack.pop()
    if (typeof next === 'string') expect(cleanText(next), JSON.stringify(next.slice(0, 40))).toBe(next)
    else if (next instanceof Date) expect(inYears(next), String(next)).toBe(true)
    else if (Array.isArray(next)) stack.push(...(next as unknown[]))
    else if (next && typeof next === 'object') stack.push(...Object.keys(next), ...Object.values(next))
  }
}

/** What every planned record must respect: the forms' bounds and the columns'. */
function expectWithinBounds(plan: ImportPlan) {
  const { hashes: _hashes, refused, warnings, ...records } = plan
  expectStorableTexts(records)
  for (const issue of [...refused, ...warnings]) {
    expect(spanish(issue.reason), issue.reason).toBe(true)
    expect(issue.key.length).toBeLessThanOrEqual(121)
  }
  for (const category of plan.categories) {
    expect(passes(CategoryNameSchema, category.name)).toBe(true)
    expect(category.id.length).toBeLessThanOrEqual(MAX_ID_LENGTH)
  }
  for (const p of plan.products) {
    expect(passes(EntryFormSchema.shape.sku, p.sku)).toBe(true)
    expect(passes(ProductFieldsSchema.shape.name, p.name)).toBe(true)
    if (p.description) expect(passes(ProductFieldsSchema.shape.description, p.description)).toBe(true)
    if (p.purchaseLink) expect(passes(ProductFieldsSchema.shape.purchaseLink, p.purchaseLink)).toBe(true)
    if (p.supplierInfo) expect(passes(ProductFieldsSchema.shape.supplierInfo, p.supplierInfo)).toBe(true)
    for (const level of [p.priceLevel1, p.priceLevel2, p.priceLevel3, p.priceLevel4, p.priceLevel5]) {
      expect(integer(level)).toBe(true)
    }
    expect(integer(p.discountPercent, 100)).toBe(true)
    for (const figure of [p.final.stock, p.final.unitsIn, p.final.unitsOut, p.final.cost, p.openingCost]) {
      expect(integer(figure)).toBe(true)
    }
    for (const m of p.history) {
      expect(passes(EntryFormSchema.shape.quantity, String(m.quantity))).toBe(true)
      expect(integer(m.unitPrice)).toBe(true)
      expect(passes(EntryFormSchema.shape.receipt, m.receipt)).toBe(true)
      expect(passes(EntryFormSchema.shape.note, m.note)).toBe(true)
    }
  }
  for (const o of plan.orders) {
    const c = o.customer
    const fields = {
      name: c.name,
      last_name: c.lastName,
      identification_number: c.identificationNumber,
      phone: c.phone,
      email: c.email,
      address: c.address,
      city: c.city,
      department: c.department,
    }
    for (const [field, text] of Object.entries(fields)) {
      expect(text.length).toBeLessThanOrEqual(CUSTOMER_FIELD_LIMITS[field as keyof typeof fields])
    }
    expect(o.id.length).toBeLessThanOrEqual(MAX_ID_LENGTH)
    for (const figure of [o.subtotal, o.shippingCost, o.total]) expect(integer(figure)).toBe(true)
    for (const item of o.items) {
      expect(passes(EntryFormSchema.shape.sku, item.sku)).toBe(true)
      expect(integer(item.quantity) && item.quantity > 0).toBe(true)
      expect(integer(item.unitPrice)).toBe(true)
    }
  }
  for (const row of plan.clicks.flatMap((m) => m.rows)) {
    expect(row.elementName.length).toBeLessThanOrEqual(MAX_NAME_LENGTH)
    expect(integer(row.clickCount)).toBe(true)
  }
  for (const row of plan.pageViews.flatMap((m) => m.rows)) {
    expect(row.pageName.length).toBeLessThanOrEqual(MAX_NAME_LENGTH)
    expect(integer(row.visits)).toBe(true)
    expect(integer(row.totalTimeSeconds, Number.MAX_SAFE_INTEGER)).toBe(true)
  }
}

/**
 * A failed run, told without printing its input whole: fast-check's own report recurses into it,
 * and an input thousands of levels deep overflows the stack before anything is shown.
 */
function expectPassed<Ts>(details: fc.RunDetails<Ts>) {
  if (!details.failed) return
  const [input] = (details.counterexample ?? []) as unknown[]
  const keys =
    input && typeof input === 'object' ? Object.keys(input).map((k) => k.slice(0, 60)) : [typeof input]
  throw new Error(
    `Falló la entrada ${details.numRuns} (semilla ${FUZZ_SEED}, claves ${JSON.stringify(keys)}): ${String(details.errorInstance).slice(0, 3000)}`,
  )
}

describe('hostile exports', () => {
  test(
    'planImport never throws, refuses in Spanish and plans only what fits',
    () => {
      // How many planned records of each kind the runs reached: the inputs must get past the checks.
      const reached = {
        categories: 0,
        products: 0,
        movements: 0,
        orders: 0,
        clicks: 0,
        pageViews: 0,
        refused: 0,
      }
      expectPassed(
        fc.check(
          fc.property(
            fc.oneof({ arbitrary: hostileExport, weight: 9 }, { arbitrary: anything, weight: 1 }),
            (source) => {
              const plan = planImport(source, NOW)
              expectWithinBounds(plan)
              reached.categories += plan.categories.length
              reached.products += plan.products.length
              reached.movements += plan.products.reduce((sum, p) => sum + p.history.length, 0)
              reached.orders += plan.orders.length
              reached.clicks += plan.clicks.length
              reached.pageViews += plan.pageViews.length
              reached.refused += plan.refused.length
            },
          ),
          { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true },
        ),
      )
      console.info(`[fuzz] import: ${FUZZ_RUNS} exportaciones; planeados ${JSON.stringify(reached)}`)
      for (const count of Object.values(reached)) expect(count).toBeGreaterThan(0)
    },
    Math.max(30_000, FUZZ_RUNS * 50),
  )

  describe('a full import', () => {
    let database: Database
    let png: Buffer
    beforeAll(async () => {
      database = await createTestDatabase()
      png = (await pngUpload()).bytes
    })
    afterAll(() => database.close())

    test('never throws but ImportStopped, and only for a failing storage', async () => {
      // Each run writes to a database of its own making: a handful of runs, not FUZZ_RUNS.
      const details = await fc.check(
        fc.asyncProperty(
          hostileExport,
          fc.boolean(),
          fc.integer({ min: 0, max: 2 }),
          async (source, dryRun, failPutsAfter) => {
            const storage = memoryStorage()
            storage.state.failPutsAfter = failPutsAfter
            // Some files answer (so the storage is written to), the others do not.
            const remote = {
              download: async (url: string) =>
                url.endsWith('.jpg')
                  ? { ok: true as const, bytes: png }
                  : { ok: false as const, reason: 'no responde' },
            }
            try {
              const report = await importOriginalShop({ db: database.db, storage, remote }, source, {
                dryRun,
                now: NOW,
              })
              for (const issue of [...report.refused, ...report.warnings]) {
                expect(spanish(issue.reason), issue.reason).toBe(true)
              }
            } catch (error) {
              expect(error, String(error)).toBeInstanceOf(ImportStopped)
              expect(storage.state.puts).toBeGreaterThan(failPutsAfter)
            }
          },
        ),
        { numRuns: Math.min(FUZZ_RUNS, 6), seed: FUZZ_SEED, endOnFailure: true },
      )
      expectPassed(details)
    }, 300_000)
  })
})
