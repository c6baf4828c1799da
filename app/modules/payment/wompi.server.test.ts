import { describe, expect, test } from 'vitest'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { refusedUrl } from '#tests/stand-ins/http.ts'
import { startWompiStandIn } from '#tests/stand-ins/wompi.ts'
import { PaymentProviderError } from './provider.ts'
import {
  integritySignature,
  verifiedWompiEvent,
  wompiCheckoutUrl,
  wompiClient,
  wompiProvider,
} from './wompi.server.ts'

/**
 * The Wompi adapter against a local Wompi: signed Web Checkout links the page accepts (and a changed
 * amount it refuses), transactions read by id and by reference in our payment words, and events
 * taken only with the right checksum.
 */

const standIn = standInForFile(startWompiStandIn)

const options = () => ({
  baseUrl: standIn().url,
  checkoutUrl: standIn().checkoutUrl,
  ...standIn().keys,
})

const ORDER = '8f0c1f7e-2b1a-4a57-9a53-0d5f5f0c1a01'

const link = (overrides: Partial<Parameters<typeof wompiCheckoutUrl>[1]> = {}) =>
  wompiCheckoutUrl(options(), {
    reference: ORDER,
    amountInCents: 12_990_000,
    redirectUrl: 'https://tienda.example.co/pedido/resultado',
    ...overrides,
  })

async function rejection(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(PaymentProviderError)
  return error as PaymentProviderError
}

describe('the Web Checkout link', () => {
  test("the integrity signature is Wompi's documented SHA-256 of reference, amount, currency and secret", () => {
    // Wompi's example: "sk8-438k4-xmxm392-sn2m" + 2490000 + COP + secret "prod_integrity_Z5mMke9x0k8gpErbDqwrJXMqsI6SFli6".
    expect(
      integritySignature(
        { reference: 'sk8-438k4-xmxm392-sn2m', amountInCents: 2_490_000 },
        'prod_integrity_Z5mMke9x0k8gpErbDqwrJXMqsI6SFli6',
      ),
    ).toBe('37c8407747e595535433ef8f6a811d853cd943046624a0ec04662b17bbf33bf5')
  })

  test('carries the public key, COP, the centavos, our reference, the signature and the way back', async () => {
    const url = new URL(
      link({
        customer: {
          email: 'ana@example.co',
          fullName: 'Ana Gómez',
          phoneNumber: '3109876543',
          legalId: '1020304050',
        },
      }),
    )
    expect(`${url.origin}${url.pathname}`).toBe(standIn().checkoutUrl)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      'public-key': standIn().keys.publicKey,
      currency: 'COP',
      'amount-in-cents': '12990000',
      reference: ORDER,
      'redirect-url': 'https://tienda.example.co/pedido/resultado',
      'customer-data:email': 'ana@example.co',
      'customer-data:full-name': 'Ana Gómez',
      'customer-data:phone-number': '3109876543',
      'customer-data:phone-number-prefix': '+57',
      'customer-data:legal-id': '1020304050',
      'customer-data:legal-id-type': 'CC',
    })
    expect((await fetch(url)).status).toBe(200)
  })

  test('an expiration goes into the signature; a link whose amount was changed is refused by the page', async () => {
    const expiring = new URL(link({ expiresAt: new Date(Date.now() + 3_600_000) }))
    expect(expiring.searchParams.get('expiration-time')).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect((await fetch(expiring)).status).toBe(200)
    const tampered = new URL(link())
    tampered.searchParams.set('amount-in-cents', '100')
    expect((await fetch(tampered)).status).toBe(422)
    expect(() => standIn().pay(tampered.toString(), 'APPROVED')).toThrow(
      'La firma de integridad no es válida',
    )
  })

  test('an amount that is not a positive whole number of centavos is refused before any link', () => {
    expect(() => link({ amountInCents: 0 })).toThrow(PaymentProviderError)
    expect(() => link({ amountInCents: 12.5 })).toThrow(/entero positivo de centavos/)
  })
})

describe('transactions', () => {
  test('one by id (public key), in our words: approved, with its reference, centavos and method', async () => {
    const { transaction, redirectTo } = standIn().pay(link(), 'APPROVED', 'NEQUI')
    expect(new URL(redirectTo).searchParams.get('id')).toBe(transaction.id)
    const read = await wompiClient(options()).getTransaction(transaction.id)
    expect(read).toEqual({
      id: transaction.id,
      status: 'approved',
      externalReference: ORDER,
      amount: 12_990_000,
      methodType: 'NEQUI',
      method: 'NEQUI',
      statusMessage: null,
    })
    const request = standIn().requests.at(-1)!
    expect(request.path).toBe(`/v1/transactions/${transaction.id}`)
    expect(request.headers.authorization).toBe(`Bearer ${standIn().keys.publicKey}`)
  })

  test.each([
    ['DECLINED', 'rejected'],
    ['ERROR', 'rejected'],
    // Only an approved card payment is voided: its money goes back.
    ['VOIDED', 'refunded'],
    ['PENDING', 'pending'],
  ] as const)('Wompi %s is %s', async (wompi, ours) => {
    const { transaction } = standIn().pay(link(), wompi, 'PSE')
    expect((await wompiClient(options()).getTransaction(transaction.id)).status).toBe(ours)
  })

  test("a reference's transactions (private key), newest first, none of another order", async () => {
    const first = standIn().pay(link(), 'DECLINED', 'CARD').transaction
    standIn().pay(link({ reference: 'otro-pedido' }), 'APPROVED')
    const second = standIn().pay(link(), 'APPROVED', 'BANCOLOMBIA_TRANSFER').transaction
    const found = await wompiClient(options()).transactionsOf(ORDER)
    expect(found.map((transaction) => [transaction.id, transaction.status])).toEqual([
      [second.id, 'approved'],
      [first.id, 'rejected'],
    ])
    const request = standIn().requests.at(-1)!
    expect(request.query.get('reference')).toBe(ORDER)
    expect(request.headers.authorization).toBe(`Bearer ${standIn().keys.privateKey}`)
  })

  test('an unknown id or a wrong key is rejected with Wompi’s reason; no answer is a network error', async () => {
    expect((await rejection(wompiClient(options()).getTransaction('nada'))).message).toBe(
      'Wompi rechazó la consulta: La entidad solicitada no existe',
    )
    const wrong = await rejection(
      wompiClient({ ...options(), privateKey: 'prv_test_mala' }).transactionsOf(ORDER),
    )
    expect(wrong).toMatchObject({ kind: 'rejected', status: 401 })
    const down = await rejection(
      wompiClient({ ...options(), baseUrl: await refusedUrl() }).getTransaction('x'),
    )
    expect(down.kind).toBe('network')
  })
})

describe('events', () => {
  test('a signed transaction.updated is taken, with what it says of the transaction', () => {
    const { transaction } = standIn().pay(link(), 'APPROVED')
    const event = standIn().eventFor(transaction, 1_795_800_000)
    expect(verifiedWompiEvent(event, standIn().keys.eventsSecret)).toEqual({
      transactionId: transaction.id,
      status: 'approved',
      reference: ORDER,
      amountInCents: 12_990_000,
      timestamp: 1_795_800_000,
    })
  })

  test('forged: another secret, a changed status or amount, another timestamp, or no signature', () => {
    const { transaction } = standIn().pay(link(), 'DECLINED')
    const secret = standIn().keys.eventsSecret
    const event = standIn().eventFor(transaction)
    expect(verifiedWompiEvent(event, 'otro-secreto')).toBeNull()
    const approved = structuredClone(event)
    approved.data.transaction.status = 'APPROVED'
    expect(verifiedWompiEvent(approved, secret)).toBeNull()
    const cheaper = structuredClone(event)
    cheaper.data.transaction.amount_in_cents = 100
    expect(verifiedWompiEvent(cheaper, secret)).toBeNull()
    expect(verifiedWompiEvent({ ...event, timestamp: event.timestamp + 1 }, secret)).toBeNull()
    expect(verifiedWompiEvent({ ...event, signature: undefined }, secret)).toBeNull()
    expect(verifiedWompiEvent({ ...event, event: 'nequi_token.updated' }, secret)).toBeNull()
    expect(verifiedWompiEvent('{}', secret)).toBeNull()
    expect(verifiedWompiEvent(null, secret)).toBeNull()
  })
})

describe('the provider', () => {
  const provider = () => wompiProvider({ ...options(), timeoutMs: 2_000 })
  const preference = {
    orderId: ORDER,
    orderNumber: 1042,
    items: [{ sku: 'ACC-1', title: 'Collar Luna', quantity: 2, unitPrice: 4_550_050, discount: 0 }],
    shippingCost: 900_000,
    shippingDiscount: 0,
    total: 10_000_100,
    payer: {
      name: 'Ana',
      surname: 'Gómez',
      email: 'ana@example.co',
      phone: '3109876543',
      identification: '',
    },
    backUrls: { success: 'https://t.co/s', pending: 'https://t.co/p', failure: 'https://t.co/f' },
    returnUrl: `https://tienda.example.co/finalizar-pedido/wompi?pedido=${ORDER}`,
    notificationUrl: 'https://tienda.example.co/api/webhooks/wompi',
  }

  test('its preference is the signed link for the whole-peso amount, and Wompi’s page takes it', async () => {
    const { id, initPoint } = await provider().createPreference(preference)
    expect(id).toBe(`wompi-${ORDER}`)
    const query = new URL(initPoint).searchParams
    // The order's 100.001,00 pesos (2 × 45.500,50 + 9.000), in whole pesos like Mercado Pago.
    expect(query.get('amount-in-cents')).toBe(String(10_000_100))
    expect(query.get('redirect-url')).toBe(preference.returnUrl)
    expect(query.get('customer-data:full-name')).toBe('Ana Gómez')
    expect(query.has('customer-data:legal-id')).toBe(false)
    expect(() => standIn().pay(initPoint, 'APPROVED')).not.toThrow()
    // A buyer who gave a NIT is prefilled as a company, not as a citizen's cédula.
    const company = new URL(
      (
        await provider().createPreference({
          ...preference,
          payer: { ...preference.payer, identification: '900123456-7', identificationType: 'NIT' },
        })
      ).initPoint,
    ).searchParams
    expect(company.get('customer-data:legal-id')).toBe('900123456-7')
    expect(company.get('customer-data:legal-id-type')).toBe('NIT')
  })

  test('a card payment is refunded by voiding it, once: asked again, the void already made', async () => {
    const { transaction } = standIn().pay(link(), 'APPROVED', 'CARD')
    expect(await provider().refundPayment(transaction.id, 'clave')).toEqual({
      id: `void-${transaction.id}`,
      status: 'approved',
      amount: 12_990_000,
    })
    expect(standIn().transactions.get(transaction.id)!.status).toBe('VOIDED')
    const voids = () => standIn().requests.filter((request) => request.path.endsWith('/void'))
    expect(voids()).toHaveLength(1)
    expect(voids()[0]!.headers.authorization).toBe(`Bearer ${standIn().keys.privateKey}`)
    expect((await provider().refundPayment(transaction.id, 'clave')).status).toBe('approved')
    expect(voids()).toHaveLength(1)
  })

  test('Nequi, PSE and other methods are refused: they are refunded from Wompi’s dashboard', async () => {
    const { transaction } = standIn().pay(link(), 'APPROVED', 'NEQUI')
    const error = await rejection(provider().refundPayment(transaction.id, 'clave'))
    expect(error.kind).toBe('rejected')
    expect(error.message).toContain('panel de Wompi')
    expect(standIn().transactions.get(transaction.id)!.status).toBe('APPROVED')
  })
})
