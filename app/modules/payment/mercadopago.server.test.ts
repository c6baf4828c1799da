import { describe, expect, test } from 'vitest'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { refusedUrl } from '#tests/stand-ins/http.ts'
import { startMercadoPagoStandIn } from '#tests/stand-ins/mercadopago.ts'
import { mercadoPagoProvider, preferenceBody } from './mercadopago.server.ts'
import { chargedAmount, chargedLines, PaymentProviderError, type PreferenceInput } from './provider.ts'

const standIn = standInForFile(startMercadoPagoStandIn)

const provider = (options: { timeoutMs?: number; accessToken?: string; baseUrl?: string } = {}) =>
  mercadoPagoProvider({
    baseUrl: options.baseUrl ?? standIn().url,
    accessToken: options.accessToken ?? standIn().accessToken,
    timeoutMs: options.timeoutMs,
  })

const ORDER_ID = 'ord_01JABCDEF'

/** What the order charges: its lines and shipping, net of their discounts (as `orders.total`). */
const totalOf = (input: Pick<PreferenceInput, 'items' | 'shippingCost' | 'shippingDiscount'>) =>
  input.items.reduce((sum, item) => sum + item.unitPrice * item.quantity - item.discount, 0) +
  input.shippingCost -
  input.shippingDiscount

function input(overrides: Partial<PreferenceInput> = {}): PreferenceInput {
  const given = {
    orderId: ORDER_ID,
    orderNumber: 1042,
    items: [
      // 45.500,00 and 12.345,67 pesos: the second has centavos Mercado Pago cannot take for COP.
      { sku: 'ACC-COL-001', title: 'Collar Luna', quantity: 2, unitPrice: 4_550_000, discount: 0 },
      {
        sku: 'ACC-ARE-002',
        title: 'Aretes Sol',
        quantity: 1,
        unitPrice: 1_234_567,
        discount: 0,
        pictureUrl: 'https://tienda.example.co/media/aretes.webp',
      },
    ],
    shippingCost: 1_200_000,
    payer: {
      name: 'Ana',
      surname: 'Gómez',
      email: 'ana@example.co',
      phone: '3001234567',
      identification: '1020304050',
    },
    backUrls: {
      success: 'https://tienda.example.co/finalizar-pedido/success',
      pending: 'https://tienda.example.co/finalizar-pedido/pending',
      failure: 'https://tienda.example.co/finalizar-pedido/failure',
    },
    returnUrl: 'https://tienda.example.co/finalizar-pedido/wompi?pedido=ord_01JABCDEF',
    notificationUrl: 'https://tienda.example.co/api/webhooks/mercadopago',
    shippingDiscount: 0,
    ...overrides,
  }
  return { ...given, total: overrides.total ?? totalOf(given) }
}

async function rejection(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(PaymentProviderError)
  return error as PaymentProviderError
}

describe('createPreference: the request', () => {
  test('POSTs the Checkout Pro body to /checkout/preferences with the Bearer token', async () => {
    await provider().createPreference(input())
    expect(standIn().requests).toHaveLength(1)
    const request = standIn().requests[0]!
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/checkout/preferences')
    expect(request.headers.authorization).toBe(`Bearer ${standIn().accessToken}`)
    expect(request.headers['content-type']).toMatch(/^application\/json/)
    expect(request.headers['x-idempotency-key']).toEqual(expect.stringContaining(ORDER_ID))

    const body = request.body as Record<string, unknown>
    expect(body.items).toEqual([
      { id: 'ACC-COL-001', title: 'Collar Luna', quantity: 2, unit_price: 45500, currency_id: 'COP' },
      {
        id: 'ACC-ARE-002',
        title: 'Aretes Sol',
        quantity: 1,
        unit_price: 12346,
        currency_id: 'COP',
        picture_url: 'https://tienda.example.co/media/aretes.webp',
      },
      { id: 'envio', title: 'Envío', quantity: 1, unit_price: 12000, currency_id: 'COP' },
    ])
    expect(body.external_reference).toBe(ORDER_ID)
    expect(body.notification_url).toBe(
      'https://tienda.example.co/api/webhooks/mercadopago?source_news=webhooks',
    )
    expect(String(body.notification_url)).toMatch(/source_news=webhooks$/)
    expect(body.back_urls).toEqual({
      success: 'https://tienda.example.co/finalizar-pedido/success',
      pending: 'https://tienda.example.co/finalizar-pedido/pending',
      failure: 'https://tienda.example.co/finalizar-pedido/failure',
    })
    expect(body.auto_return).toBe('approved')
    expect(body.payer).toEqual({
      name: 'Ana',
      surname: 'Gómez',
      email: 'ana@example.co',
      phone: { area_code: '57', number: '3001234567' },
      identification: { type: 'CC', number: '1020304050' },
    })
  })

  test('free shipping sends no shipping line', async () => {
    await provider().createPreference(input({ shippingCost: 0 }))
    const items = (standIn().requests[0]!.body as { items: { id: string }[] }).items
    expect(items.map((item) => item.id)).toEqual(['ACC-COL-001', 'ACC-ARE-002'])
  })

  test('a notification URL that already has a query keeps it and gets &source_news=webhooks', () => {
    const body = preferenceBody(
      input({ notificationUrl: 'https://tienda.example.co/api/webhooks/mercadopago?x=1' }),
    )
    expect(body.notification_url).toBe(
      'https://tienda.example.co/api/webhooks/mercadopago?x=1&source_news=webhooks',
    )
  })

  test('a link with an expiry tells Mercado Pago when it stops taking payments', () => {
    const expiresAt = new Date('2026-11-24T09:00:00.000Z')
    expect(preferenceBody(input({ expiresAt }))).toMatchObject({
      expires: true,
      expiration_date_to: '2026-11-24T09:00:00.000Z',
    })
    expect(preferenceBody(input())).not.toHaveProperty('expires')
  })

  test('every unit price is a whole number of pesos', () => {
    const body = preferenceBody(
      input({
        items: [{ sku: 'A', title: 'A', quantity: 3, unitPrice: 999_949, discount: 0 }],
        shippingCost: 50,
      }),
    )
    // 29.998,47 of the line and 0,50 of shipping are charged 29.999: the peso goes to the nearer one.
    expect(body.items.map((item) => [item.title, item.quantity, item.unit_price])).toEqual([
      ['A × 3', 1, 29998],
      ['Envío', 1, 1],
    ])
    for (const item of body.items) expect(Number.isInteger(item.unit_price)).toBe(true)
  })

  test('a discounted order: each discounted line one item at its net amount, the shipping net, summing to the total', () => {
    const order = input({
      items: [
        // 90.000 less Black Friday's 9.000; 30.000 less 3.333,33; one at its price.
        { sku: 'COL', title: 'Collar Luna', quantity: 2, unitPrice: 4_500_000, discount: 900_000 },
        { sku: 'ARE', title: 'Aretes Sol', quantity: 3, unitPrice: 1_000_000, discount: 333_333 },
        { sku: 'ANI', title: 'Anillo', quantity: 1, unitPrice: 2_000_000, discount: 0 },
      ],
      shippingCost: 1_200_000,
      shippingDiscount: 700_000,
    })
    expect(order.total).toBe(13_266_667)
    const body = preferenceBody(order)
    expect(body.items.map((item) => [item.id, item.title, item.quantity, item.unit_price])).toEqual([
      ['COL', 'Collar Luna × 2', 1, 81000],
      ['ARE', 'Aretes Sol × 3', 1, 26667],
      ['ANI', 'Anillo', 1, 20000],
      ['envio', 'Envío', 1, 5000],
    ])
    const sum = body.items.reduce((total, item) => total + item.unit_price * item.quantity, 0)
    expect(sum * 100).toBe(chargedAmount(order))
    expect(chargedAmount(order)).toBe(13_266_700)
  })

  test('free shipping by a promotion sends no shipping line; a line taken off whole is left out', () => {
    const body = preferenceBody(
      input({
        items: [
          { sku: 'COL', title: 'Collar Luna', quantity: 1, unitPrice: 4_500_000, discount: 4_500_000 },
          { sku: 'ARE', title: 'Aretes Sol', quantity: 2, unitPrice: 1_000_000, discount: 0 },
        ],
        shippingCost: 1_200_000,
        shippingDiscount: 1_200_000,
      }),
    )
    expect(body.items.map((item) => [item.id, item.quantity, item.unit_price])).toEqual([['ARE', 2, 10000]])
  })

  test('whatever the centavos, the items add up to exactly what is charged and none is negative', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const items = [1, 2, 3].map((n) => {
        const unitPrice = ((seed * 7919 * n) % 9_000_000) + 101
        const quantity = ((seed + n) % 4) + 1
        return {
          sku: `S${n}`,
          title: `P${n}`,
          quantity,
          unitPrice,
          discount: (seed * 104_729 * n) % (unitPrice * quantity + 1),
        }
      })
      const shippingCost = (seed * 31) % 1_500_000
      const order = input({ items, shippingCost, shippingDiscount: (seed * 17) % (shippingCost + 1) })
      const lines = chargedLines(order)
      expect(lines.reduce((sum, line) => sum + line.unitPesos * line.quantity, 0) * 100).toBe(
        chargedAmount(order),
      )
      for (const line of lines) expect(line.unitPesos > 0 && Number.isInteger(line.unitPesos)).toBe(true)
    }
  })

  test('a base URL with a trailing slash gives the same path', async () => {
    await provider({ baseUrl: `${standIn().url}/` }).createPreference(input())
    expect(standIn().requests[0]!.path).toBe('/checkout/preferences')
  })
})

describe('createPreference: the answer', () => {
  test('maps id and init_point of the 201', async () => {
    const preference = await provider().createPreference(input())
    const [created] = [...standIn().preferences.values()]
    expect(preference).toEqual({ id: created!.id, initPoint: created!.init_point })
    expect(preference.initPoint).toMatch(
      /^https:\/\/www\.mercadopago\.com\.co\/checkout\/v1\/redirect\?pref_id=/,
    )
  })

  test('a 4xx is "rejected" with Mercado Pago\'s message and status', async () => {
    standIn().failNext(1, 400, {
      message: 'unit_price invalid',
      error: 'invalid_items',
      status: 400,
      cause: [{ code: 'invalid_items', description: 'unit_price invalid' }],
    })
    const error = await rejection(provider().createPreference(input()))
    expect(error.kind).toBe('rejected')
    expect(error.message).toBe('unit_price invalid')
    expect(error.status).toBe(400)
  })

  test('a wrong access token is "rejected" 401 (the stand-in checks the Bearer header)', async () => {
    const error = await rejection(provider({ accessToken: 'APP_USR-wrong' }).createPreference(input()))
    expect(error).toMatchObject({ kind: 'rejected', status: 401, message: 'invalid access token' })
    expect(standIn().requests[0]!.headers.authorization).toBe('Bearer APP_USR-wrong')
  })

  test('a body Mercado Pago would refuse is refused by the stand-in too', async () => {
    const bad = input({
      items: [{ sku: '', title: 'Sin SKU', quantity: 1, unitPrice: 100_000, discount: 0 }],
    })
    const error = await rejection(provider().createPreference(bad))
    expect(error).toMatchObject({ kind: 'rejected', status: 400 })
  })

  test('a 5xx is "rejected" too, with its message', async () => {
    standIn().failNext(1, 500)
    const error = await rejection(provider().createPreference(input()))
    expect(error).toMatchObject({ kind: 'rejected', status: 500, message: 'Internal server error' })
  })

  test('a 5xx without JSON is "rejected" with the HTTP status', async () => {
    standIn().failNext(1, 502, '<html><body>Bad Gateway</body></html>')
    const error = await rejection(provider().createPreference(input()))
    expect(error).toMatchObject({ kind: 'rejected', status: 502, message: 'HTTP 502' })
  })

  test('connection refused is "network"', async () => {
    const error = await rejection(provider({ baseUrl: await refusedUrl() }).createPreference(input()))
    expect(error.kind).toBe('network')
  })

  test('a server that never answers is "network" after timeoutMs', async () => {
    standIn().hang('headers')
    const started = Date.now()
    const error = await rejection(provider({ timeoutMs: 200 }).createPreference(input()))
    expect(error.kind).toBe('network')
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(standIn().requests).toHaveLength(1)
  })

  test('a body that stalls half-way is "network" too, not a missing link', async () => {
    standIn().hang('body')
    const error = await rejection(provider({ timeoutMs: 200 }).createPreference(input()))
    expect(error.kind).toBe('network')
  })

  test('a 201 without init_point is "invalid-response"', async () => {
    standIn().omitInitPoint()
    const error = await rejection(provider().createPreference(input()))
    expect(error.kind).toBe('invalid-response')
  })
})

describe('getPayment', () => {
  test('GETs /v1/payments/{id} with the Bearer token and maps pesos to centavos', async () => {
    standIn().addPayment({
      id: 1319741055,
      status: 'approved',
      external_reference: ORDER_ID,
      transaction_amount: 115345,
      payment_type_id: 'credit_card',
      fee_details: [
        { type: 'mercadopago_fee', amount: 4613.8, fee_payer: 'collector' },
        { type: 'financing_fee', amount: 900, fee_payer: 'payer' },
      ],
    })
    const payment = await provider().getPayment('1319741055')
    // The fee is what the seller paid (the payer's financing is not the shop's cost).
    expect(payment).toEqual({
      id: '1319741055',
      status: 'approved',
      externalReference: ORDER_ID,
      amount: 11_534_500,
      method: 'credit_card',
      fee: 461_380,
    })
    const request = standIn().requests[0]!
    expect(request).toMatchObject({ method: 'GET', path: '/v1/payments/1319741055' })
    expect(request.headers.authorization).toBe(`Bearer ${standIn().accessToken}`)
    expect(request.body).toBeUndefined()
  })

  test('keeps the status as sent and a missing external_reference as null', async () => {
    standIn().addPayment({
      id: 77,
      status: 'in_process',
      external_reference: null,
      transaction_amount: 9999.5,
    })
    expect(await provider().getPayment('77')).toEqual({
      id: '77',
      status: 'in_process',
      externalReference: null,
      amount: 999_950,
      method: 'bank_transfer',
      fee: null,
    })
  })

  test('an unknown payment is "rejected" 404 with Mercado Pago\'s message', async () => {
    const error = await rejection(provider().getPayment('404404'))
    expect(error).toMatchObject({ kind: 'rejected', status: 404, message: 'Payment not found' })
  })

  test('a 200 without status or amount is "invalid-response", never a guessed "pending"', async () => {
    standIn().failNext(1, 200, { id: 5 })
    const error = await rejection(provider().getPayment('5'))
    expect(error.kind).toBe('invalid-response')
  })

  test('a payment body that stalls is "network", never a guessed "pending"', async () => {
    standIn().hang('body')
    const error = await rejection(provider({ timeoutMs: 200 }).getPayment('5'))
    expect(error.kind).toBe('network')
  })

  test('connection refused is "network"', async () => {
    const error = await rejection(provider({ baseUrl: await refusedUrl() }).getPayment('1'))
    expect(error.kind).toBe('network')
  })
})

describe('searchPayments', () => {
  test('GETs /v1/payments/search by external_reference, newest first, and maps each result', async () => {
    standIn().addPayment({
      id: 501,
      status: 'rejected',
      external_reference: ORDER_ID,
      transaction_amount: 100000,
    })
    standIn().addPayment({
      id: 502,
      status: 'approved',
      external_reference: ORDER_ID,
      transaction_amount: 100000,
    })
    standIn().addPayment({ id: 503, status: 'approved', external_reference: 'otro', transaction_amount: 5 })
    const payments = await provider().searchPayments(ORDER_ID)
    const request = standIn().requests.at(-1)!
    expect(request.method).toBe('GET')
    expect(request.path).toBe('/v1/payments/search')
    expect(Object.fromEntries(request.query)).toEqual({
      external_reference: ORDER_ID,
      sort: 'date_created',
      criteria: 'desc',
    })
    expect(request.headers.authorization).toBe(`Bearer ${standIn().accessToken}`)
    expect(payments).toEqual([
      {
        id: '502',
        status: 'approved',
        externalReference: ORDER_ID,
        amount: 10_000_000,
        method: 'bank_transfer',
        fee: null,
      },
      {
        id: '501',
        status: 'rejected',
        externalReference: ORDER_ID,
        amount: 10_000_000,
        method: 'bank_transfer',
        fee: null,
      },
    ])
  })

  test('no payments yet is an empty list', async () => {
    expect(await provider().searchPayments(ORDER_ID)).toEqual([])
  })

  test('a 5xx is "rejected" and connection refused is "network": the caller must not assume unpaid', async () => {
    standIn().failNext(1, 503)
    await expect(provider().searchPayments(ORDER_ID)).rejects.toMatchObject({ kind: 'rejected', status: 503 })
    await expect(provider({ baseUrl: await refusedUrl() }).searchPayments(ORDER_ID)).rejects.toMatchObject({
      kind: 'network',
    })
  })

  test('an answer without results is "invalid-response", never an empty search', async () => {
    standIn().failNext(1, 200, { paging: { total: 0, limit: 30, offset: 0 } })
    await expect(provider().searchPayments(ORDER_ID)).rejects.toMatchObject({ kind: 'invalid-response' })
  })
})

describe('refundPayment', () => {
  const approved = (id = 1319741055, pesos = 115345) =>
    standIn().addPayment({ id, status: 'approved', external_reference: ORDER_ID, transaction_amount: pesos })

  test('POSTs an empty body (a whole refund) to /v1/payments/{id}/refunds with the key and the Bearer token', async () => {
    approved()
    const refund = await provider().refundPayment('1319741055', 'refund-claim-7')
    const request = standIn().requests[0]!
    expect(request).toMatchObject({ method: 'POST', path: '/v1/payments/1319741055/refunds', rawBody: '{}' })
    expect(request.body).toEqual({})
    expect(request.headers.authorization).toBe(`Bearer ${standIn().accessToken}`)
    expect(request.headers['content-type']).toMatch(/^application\/json/)
    expect(request.headers['x-idempotency-key']).toBe('refund-claim-7')
    const [made] = standIn().refunds.get('1319741055')!
    // Mercado Pago answers pesos; ours are centavos.
    expect(refund).toEqual({ id: String(made!.id), status: 'approved', amount: 11_534_500 })
    expect(standIn().paymentStatus(1319741055)).toBe('refunded')
    expect((await provider().getPayment('1319741055')).status).toBe('refunded')
  })

  test('the same idempotency key twice gives the same refund, never a second one', async () => {
    approved()
    const first = await provider().refundPayment('1319741055', 'refund-claim-7')
    const again = await provider().refundPayment('1319741055', 'refund-claim-7')
    expect(again).toEqual(first)
    expect(standIn().refunds.get('1319741055')).toHaveLength(1)
  })

  test('an already refunded payment under another key is "rejected" 400 with Mercado Pago\'s message', async () => {
    approved()
    await provider().refundPayment('1319741055', 'refund-claim-7')
    const error = await rejection(provider().refundPayment('1319741055', 'refund-claim-8'))
    expect(error).toMatchObject({ kind: 'rejected', status: 400, message: 'Payment already refunded' })
    expect(standIn().refunds.get('1319741055')).toHaveLength(1)
  })

  test('a payment that is not approved is "rejected" 400 and stays as it was', async () => {
    standIn().addPayment({ id: 88, status: 'pending', external_reference: ORDER_ID, transaction_amount: 100 })
    const error = await rejection(provider().refundPayment('88', 'refund-claim-1'))
    expect(error).toMatchObject({ kind: 'rejected', status: 400, message: 'Invalid payment status: pending' })
    expect(standIn().paymentStatus(88)).toBe('pending')
  })

  test('an unknown payment is "rejected" 404', async () => {
    const error = await rejection(provider().refundPayment('404404', 'refund-claim-1'))
    expect(error).toMatchObject({ kind: 'rejected', status: 404, message: 'Payment not found' })
  })

  test('a 5xx is "rejected" with its status (the job retries it) and refunds nothing', async () => {
    approved()
    standIn().failNext(1, 500)
    const error = await rejection(provider().refundPayment('1319741055', 'refund-claim-7'))
    expect(error).toMatchObject({ kind: 'rejected', status: 500 })
    expect(standIn().paymentStatus(1319741055)).toBe('approved')
  })

  test('connection refused and a stalled body are "network"', async () => {
    expect((await rejection(provider({ baseUrl: await refusedUrl() }).refundPayment('1', 'k'))).kind).toBe(
      'network',
    )
    standIn().hang('body')
    expect((await rejection(provider({ timeoutMs: 200 }).refundPayment('1', 'k'))).kind).toBe('network')
  })

  test('a 201 without id, status or amount is "invalid-response"', async () => {
    standIn().failNext(1, 201, { payment_id: 1, status: 'approved' })
    const error = await rejection(provider().refundPayment('1', 'k'))
    expect(error.kind).toBe('invalid-response')
  })
})
