import { count, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { products } from '#app/modules/catalog/schema.ts'
import { listOrderEvents, getOrder } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { setupTestDatabase, usingPostgres } from '#tests/db.ts'
import { ANA, LOOSE_HOLD_LIMITS } from '#tests/orders.ts'
import { createProduct } from '#tests/factories.ts'
import { clearJobs, queuedJobs, setupJobQueue } from '#tests/jobs.ts'
import { quoteFlat, saveSettings } from '#tests/carrier-quotes.ts'
import { SHIPPING_ZONES_KEY } from '#app/modules/settings/validators.ts'
import { CheckoutRefused, placeOrder, type CheckoutContext } from './checkout.server.ts'
import { CHECKOUT_MESSAGES } from './messages.ts'

/**
 * What `placeOrder` gave: `{ ok: true, order, created }`, or `{ ok: false, errors }` from the
 * `CheckoutRefused` it threw (anything else is thrown on).
 */
async function attempt(...args: Parameters<typeof placeOrder>) {
  try {
    return { ok: true as const, ...(await placeOrder(...args)) }
  } catch (thrown) {
    if (!(thrown instanceof CheckoutRefused)) throw thrown
    return { ok: false as const, errors: thrown.errors }
  }
}

const t = setupTestDatabase()
const jobs = setupJobQueue(() => t.database)

const shipping = { shippingCost: 8_000_00, freeShippingThreshold: 100_000_00 }
const ctx = (): CheckoutContext => ({
  db: t.db,
  jobs: jobs.queue,
  shipping,
  notifyNumbers: ['573001112233', '573004445566'],
  onlinePayments: { mercadopago: true, wompi: true },
  holdLimits: LOOSE_HOLD_LIMITS,
})

const customer = ANA

async function productRow(sku: string) {
  const [row] = await t.db.select().from(products).where(eq(products.sku, sku))
  return row!
}

async function orderCount() {
  const [row] = await t.db.select({ n: count() }).from(orders)
  return row!.n
}

beforeEach(async () => {
  await clearJobs(t.database)
})

describe('placing a cash-on-delivery order', () => {
  test('reserves the units, prices from the catalogue and enqueues one notice per number', async () => {
    const collar = await createProduct(t.db, {
      name: 'Collar Reserva',
      pesos: 40000,
      discountPercent: 25,
      stock: 5,
    })
    const aretes = await createProduct(t.db, { name: 'Aretes Reserva', pesos: 12500, stock: 2 })
    const result = await attempt(ctx(), {
      lines: [
        { sku: collar.sku, quantity: 2 },
        { sku: aretes.sku, quantity: 1 },
      ],
      customer,
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const order = await getOrder(t.db, result.order.id)
    expect(order).toMatchObject({
      status: 'pendiente de pago',
      paymentMethod: 'acordar',
      customerName: 'Ana',
      customerPhone: '3001234567',
      customerDepartment: 'Antioquia',
      subtotal: 2 * 30_000_00 + 12_500_00,
      shippingCost: 8_000_00,
      total: 72_500_00 + 8_000_00,
      reservationHeld: true,
    })
    expect(order!.number).toBeGreaterThanOrEqual(1001)
    expect(order!.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          productSku: collar.sku,
          title: 'Collar Reserva',
          quantity: 2,
          unitPrice: 30_000_00,
        }),
        expect.objectContaining({ productSku: aretes.sku, quantity: 1, unitPrice: 12_500_00 }),
      ]),
    )
    expect((await productRow(collar.sku)).reserved).toBe(2)
    expect((await productRow(aretes.sku)).reserved).toBe(1)
    expect((await productRow(collar.sku)).stock).toBe(5)
    expect((await listOrderEvents(t.db, result.order.id)).map((e) => e.type)).toEqual(['placed'])
    expect(await queuedJobs(t.database, 'order-new-notice')).toEqual([
      { orderId: result.order.id, to: '573001112233' },
      { orderId: result.order.id, to: '573004445566' },
    ])
  })

  test('free shipping when the subtotal exceeds 100.000', async () => {
    const anillo = await createProduct(t.db, { pesos: 100001, stock: 1 })
    const result = await attempt(ctx(), { lines: [{ sku: anillo.sku, quantity: 1 }], customer })
    expect(result.ok && result.order.total).toBe(100_001_00)
  })

  test('repeated lines of one sku are merged', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const result = await attempt(ctx(), {
      lines: [
        { sku: product.sku, quantity: 1 },
        { sku: product.sku, quantity: 2 },
      ],
      customer,
    })
    expect(result.ok).toBe(true)
    expect((await productRow(product.sku)).reserved).toBe(3)
  })

  test('without notify numbers the skipped notice is recorded on the order', async () => {
    const product = await createProduct(t.db)
    const result = await attempt(
      { ...ctx(), notifyNumbers: [] },
      { lines: [{ sku: product.sku, quantity: 1 }], customer },
    )
    if (!result.ok) throw new Error('expected an order')
    expect((await listOrderEvents(t.db, result.order.id)).map((e) => e.type)).toEqual([
      'placed',
      'notice-skipped',
    ])
    expect(await queuedJobs(t.database, 'order-new-notice')).toEqual([])
  })

  test('an online-payment order is announced at purchase too (spec §7), once per number', async () => {
    const product = await createProduct(t.db)
    const result = await placeOrder(ctx(), {
      lines: [{ sku: product.sku, quantity: 1 }],
      customer: { ...customer, payment_method: 'mercadopago' },
    })
    expect(result.order.paymentMethod).toBe('mercadopago')
    expect(await queuedJobs(t.database, 'order-new-notice')).toEqual([
      { orderId: result.order.id, to: '573001112233' },
      { orderId: result.order.id, to: '573004445566' },
    ])
  })
})

test('names are kept on one line and without NUL characters', async () => {
  const product = await createProduct(t.db)
  const result = await placeOrder(ctx(), {
    lines: [{ sku: product.sku, quantity: 1 }],
    customer: { ...customer, name: 'Ana\u0000\n  María', address: 'Calle 1\t# 2-3' },
  })
  expect(await getOrder(t.db, result.order.id)).toMatchObject({
    customerName: 'Ana María',
    customerAddress: 'Calle 1 # 2-3',
  })
})

test('the same form sent twice, even at once, makes one order and reserves once', async () => {
  const product = await createProduct(t.db, { stock: 5 })
  const send = () =>
    attempt(ctx(), {
      lines: [{ sku: product.sku, quantity: 2 }],
      customer,
      checkoutKey: 'clave-formulario-1',
    })
  const [a, b] = await Promise.all([send(), send()])
  const again = await send()
  expect(a.ok && b.ok && again.ok).toBe(true)
  if (!a.ok || !b.ok || !again.ok) return
  expect(new Set([a.order.id, b.order.id, again.order.id]).size).toBe(1)
  expect((await productRow(product.sku)).reserved).toBe(2)
  // Exactly one of them made it: only that one may undo it.
  expect([a.created, b.created, again.created].filter(Boolean)).toHaveLength(1)
  expect(again.created).toBe(false)
  // One notice per number for the one order.
  expect(await queuedJobs(t.database, 'order-new-notice')).toHaveLength(2)
})

describe('refusals write nothing', () => {
  test('more units than available: the spec message, no order, no reservation, no job', async () => {
    const ok = await createProduct(t.db, { stock: 5 })
    const scarce = await createProduct(t.db, { stock: 3, reserved: 2 })
    const before = await orderCount()
    const result = await attempt(ctx(), {
      lines: [
        { sku: ok.sku, quantity: 1 },
        { sku: scarce.sku, quantity: 2 },
      ],
      customer,
    })
    expect(result).toEqual({ ok: false, errors: { form: [CHECKOUT_MESSAGES.overStock], fields: {} } })
    expect(await orderCount()).toBe(before)
    expect((await productRow(ok.sku)).reserved).toBe(0)
    expect((await productRow(scarce.sku)).reserved).toBe(2)
    expect(await queuedJobs(t.database, 'order-new-notice')).toEqual([])
  })

  test('a hidden or unknown product', async () => {
    const hidden = await createProduct(t.db, { showRetail: false })
    for (const sku of [hidden.sku, 'NO-EXISTE-1234']) {
      const result = await attempt(ctx(), { lines: [{ sku, quantity: 1 }], customer })
      expect(result).toEqual({ ok: false, errors: { form: [CHECKOUT_MESSAGES.unavailable], fields: {} } })
    }
  })

  test('absurd quantities are refused as over stock, without reaching the database', async () => {
    const product = await createProduct(t.db)
    const result = await attempt(ctx(), { lines: [{ sku: product.sku, quantity: 2 ** 31 }], customer })
    expect(result).toEqual({ ok: false, errors: { form: [CHECKOUT_MESSAGES.overStock], fields: {} } })
  })

  test('a shop without Mercado Pago takes only cash on delivery', async () => {
    const product = await createProduct(t.db)
    const result = await attempt(
      { ...ctx(), onlinePayments: { mercadopago: false, wompi: false } },
      {
        lines: [{ sku: product.sku, quantity: 1 }],
        customer: { ...customer, payment_method: 'mercadopago' },
      },
    )
    expect(result).toEqual({ ok: false, errors: { form: [CHECKOUT_MESSAGES.onlineUnavailable], fields: {} } })
  })

  test('an empty cart', async () => {
    expect(await attempt(ctx(), { lines: [], customer })).toEqual({
      ok: false,
      errors: { form: ['Debe tener al menos un producto'], fields: {} },
    })
  })

  test('missing required fields', async () => {
    const product = await createProduct(t.db)
    const result = await attempt(ctx(), {
      lines: [{ sku: product.sku, quantity: 1 }],
      customer: { ...customer, name: '  ', address: '', department: '', phone: '' },
    })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors.form).toEqual(['Por favor complete todos los campos.'])
    expect(Object.keys(result.errors.fields).sort()).toEqual(['address', 'department', 'name', 'phone'])
  })

  test('a zero quantity', async () => {
    const product = await createProduct(t.db)
    const result = await attempt(ctx(), { lines: [{ sku: product.sku, quantity: 0 }], customer })
    expect(result.ok === false && result.errors.form).toEqual([
      'Hay productos con cantidad igual a 0. Por favor, revisa tu carrito.',
    ])
  })

  test('a quantity that is no whole number names its product (issue 23); 0 keeps the spec message', async () => {
    const luna = await createProduct(t.db, { name: 'Collar Luna', stock: 5 })
    const sol = await createProduct(t.db, { name: 'Aretes Sol', stock: 5 })
    const before = await orderCount()
    const refusedFor = async (lines: { sku: string; quantity: number }[]) => {
      const result = await attempt(ctx(), { lines, customer })
      return result.ok ? null : result.errors.form
    }
    const luna15 = 'La cantidad de Collar Luna debe ser un número entero de 1 en adelante.'
    for (const quantity of [1.5, -2, Number.NaN, 0.0001]) {
      expect(await refusedFor([{ sku: luna.sku, quantity }]), String(quantity)).toEqual([luna15])
    }
    // Each product named once, the good lines not blamed; halves never add up to a whole order.
    expect(
      await refusedFor([
        { sku: luna.sku, quantity: 1.5 },
        { sku: sol.sku, quantity: 1 },
        { sku: luna.sku, quantity: 0.5 },
      ]),
    ).toEqual([luna15])
    expect(
      await refusedFor([
        { sku: sol.sku, quantity: 0 },
        { sku: luna.sku, quantity: -1 },
      ]),
    ).toEqual([CHECKOUT_MESSAGES.zeroQuantity, luna15])
    // A product we do not know is named by its code.
    expect(await refusedFor([{ sku: 'NO-EXISTE-1', quantity: 2.5 }])).toEqual([
      'La cantidad de NO-EXISTE-1 debe ser un número entero de 1 en adelante.',
    ])
    expect(await orderCount()).toBe(before)
    expect((await productRow(luna.sku)).reserved).toBe(0)
    expect((await productRow(sol.sku)).reserved).toBe(0)
  })

  test('a bad phone, e-mail, department or missing consent', async () => {
    const product = await createProduct(t.db)
    const result = await attempt(ctx(), {
      lines: [{ sku: product.sku, quantity: 1 }],
      customer: { ...customer, phone: '12345', email: 'ana@', department: 'Texas', consent: false },
    })
    expect(result.ok === false && result.errors.fields).toEqual({
      phone: CHECKOUT_MESSAGES.phone,
      email: CHECKOUT_MESSAGES.email,
      department: CHECKOUT_MESSAGES.department,
      consent: CHECKOUT_MESSAGES.consent,
    })
  })
})

test(`no oversell: 50 simultaneous checkouts for 5 units make exactly 5 orders (${usingPostgres() ? 'PostgreSQL pool' : 'PGlite'})`, async () => {
  const product = await createProduct(t.db, { name: 'Collar Concurrido', stock: 5 })
  const before = await orderCount()
  const results = await Promise.all(
    Array.from({ length: 50 }, () =>
      attempt(ctx(), { lines: [{ sku: product.sku, quantity: 1 }], customer }),
    ),
  )
  const placed = results.filter((r) => r.ok)
  expect(placed).toHaveLength(5)
  expect(
    results.filter((r) => !r.ok).every((r) => !r.ok && r.errors.form[0] === CHECKOUT_MESSAGES.overStock),
  ).toBe(true)
  expect(await orderCount()).toBe(before + 5)
  const row = await productRow(product.sku)
  expect(row.reserved).toBe(5)
  expect(row.stock - row.reserved).toBe(0)
})

describe('where the order goes and who it is for (DANE codes, identity document)', () => {
  test('the order keeps the department and municipality codes, the municipality as its city, and the document', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const result = await attempt(ctx(), {
      lines: [{ sku: product.sku, quantity: 1 }],
      customer: {
        ...customer,
        department: 'Norte de Santander',
        municipality_code: '54001',
        identification_type: 'NIT',
        identification_number: '800.197.268-4',
      },
    })
    if (!result.ok) throw new Error(JSON.stringify(result.errors))
    expect(await getOrder(t.db, result.order.id)).toMatchObject({
      customerDepartment: 'Norte de Santander',
      customerDepartmentCode: '54',
      customerMunicipalityCode: '54001',
      customerCity: 'San José de Cúcuta',
      customerIdentificationType: 'NIT',
      customerIdentificationNumber: '800197268-4',
    })
  })

  test('without a document number the order keeps no document type', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const result = await attempt(ctx(), {
      lines: [{ sku: product.sku, quantity: 1 }],
      customer: { ...customer, identification_type: 'CC', identification_number: '' },
    })
    if (!result.ok) throw new Error(JSON.stringify(result.errors))
    expect(await getOrder(t.db, result.order.id)).toMatchObject({
      customerIdentificationType: null,
      customerIdentificationNumber: '',
    })
  })

  test('the municipality is required once the department is known, and must be of that department', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const before = await orderCount()
    const lines = [{ sku: product.sku, quantity: 1 }]
    const missing = await attempt(ctx(), { lines, customer: { ...customer, municipality_code: '' } })
    expect(missing.ok === false && missing.errors).toEqual({
      form: [CHECKOUT_MESSAGES.required],
      fields: { municipality_code: 'Este campo es obligatorio.' },
    })
    const elsewhere = await attempt(ctx(), { lines, customer: { ...customer, municipality_code: '76001' } })
    expect(elsewhere.ok === false && elsewhere.errors.fields).toEqual({
      municipality_code: 'Elige un municipio de Antioquia.',
    })
    const unknown = await attempt(ctx(), { lines, customer: { ...customer, municipality_code: '05999' } })
    expect(unknown.ok === false && unknown.errors.fields.municipality_code).toBe(
      'Elige un municipio de Antioquia.',
    )
    expect(await orderCount()).toBe(before)
    expect((await productRow(product.sku)).reserved).toBe(0)
  })

  test('Bogotá D.C. has one municipality: it needs no choice', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const result = await attempt(ctx(), {
      lines: [{ sku: product.sku, quantity: 1 }],
      customer: { ...customer, department: 'Bogotá D.C.', municipality_code: '' },
    })
    if (!result.ok) throw new Error(JSON.stringify(result.errors))
    expect(await getOrder(t.db, result.order.id)).toMatchObject({
      customerMunicipalityCode: '11001',
      customerCity: 'Bogotá, D.C.',
    })
  })

  test('a document number that does not fit its type is refused beside the field', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const lines = [{ sku: product.sku, quantity: 1 }]
    const nit = await attempt(ctx(), {
      lines,
      customer: { ...customer, identification_type: 'NIT', identification_number: '800197268-5' },
    })
    expect(nit.ok === false && nit.errors).toEqual({
      form: [],
      fields: {
        identification_number:
          'El dígito de verificación no corresponde al NIT 800197268: revisa el número después del guion.',
      },
    })
    const cc = await attempt(ctx(), {
      lines,
      customer: { ...customer, identification_type: 'CC', identification_number: 'AB123' },
    })
    expect(cc.ok === false && cc.errors.fields.identification_number).toBe(
      'La cédula de ciudadanía lleva solo números: entre 3 y 10 dígitos.',
    )
    const type = await attempt(ctx(), {
      lines,
      customer: { ...customer, identification_type: 'DNI', identification_number: '123' },
    })
    expect(type.ok === false && type.errors.fields.identification_type).toBe(
      'Elige un tipo de documento de la lista.',
    )
  })
})

describe('a live shipping quote (asked before the transaction, passed in)', () => {
  const quote = {
    price: 12_450_50,
    carrier: 'servientrega',
    carrierName: 'Servientrega',
    serviceName: 'Servientrega Mercancía Premier',
    days: 2,
    municipalityCode: '05001',
  }

  test('prices the order’s shipping and says so on its timeline', async () => {
    const product = await createProduct(t.db, { pesos: 30_000, stock: 3 })
    const result = await attempt(ctx(), {
      lines: [{ sku: product.sku, quantity: 1 }],
      customer,
      shippingQuote: quote,
    })
    if (!result.ok) throw new Error('expected an order')
    const order = await getOrder(t.db, result.order.id)
    expect(order).toMatchObject({ shippingCost: 12_450_50, total: order!.subtotal + 12_450_50 })
    const events = await listOrderEvents(t.db, result.order.id)
    expect(events.map((event) => event.type)).toEqual(['placed', 'shipping-quoted'])
    expect(events[1]!.message).toBe('Envío cotizado con Servientrega: $\u00a012.450,50 (2 días).')
  })

  test('a zone’s own cost wins over the quote (no quote line); a zone without cost leaves it', async () => {
    const product = await createProduct(t.db, { pesos: 30_000, stock: 3 })
    const place = (code: string, cost: number | null) =>
      saveSettings(t.db, { [SHIPPING_ZONES_KEY]: [{ code, cost, cashOnDelivery: true }] })
    try {
      await place('05', 6_000_00)
      const zoned = await attempt(ctx(), {
        lines: [{ sku: product.sku, quantity: 1 }],
        customer,
        shippingQuote: quote,
      })
      if (!zoned.ok) throw new Error('expected an order')
      expect((await getOrder(t.db, zoned.order.id))!.shippingCost).toBe(6_000_00)
      expect((await listOrderEvents(t.db, zoned.order.id)).map((event) => event.type)).toEqual(['placed'])

      await place('05001', null)
      const open = await attempt(ctx(), {
        lines: [{ sku: product.sku, quantity: 1 }],
        customer,
        shippingQuote: quote,
      })
      expect(open.ok && (await getOrder(t.db, open.order.id))!.shippingCost).toBe(12_450_50)
    } finally {
      await quoteFlat(t.db)
    }
  })

  test('the free-shipping threshold wins over the quote', async () => {
    const anillo = await createProduct(t.db, { pesos: 100_001, stock: 1 })
    const result = await attempt(ctx(), {
      lines: [{ sku: anillo.sku, quantity: 1 }],
      customer,
      shippingQuote: quote,
    })
    if (!result.ok) throw new Error('expected an order')
    expect(result.order.total).toBe(100_001_00)
    expect((await listOrderEvents(t.db, result.order.id)).map((event) => event.type)).toEqual(['placed'])
  })

  test('no quote, or one for another municipality: the flat cost', async () => {
    const product = await createProduct(t.db, { pesos: 30_000, stock: 3 })
    for (const shippingQuote of [null, { ...quote, municipalityCode: '11001' }]) {
      const result = await attempt(ctx(), {
        lines: [{ sku: product.sku, quantity: 1 }],
        customer,
        shippingQuote,
      })
      expect(result.ok && (await getOrder(t.db, result.order.id))!.shippingCost).toBe(8_000_00)
    }
  })
})
