import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, test, vi } from 'vitest'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, serializeConsent } from '#app/modules/analytics/consent.ts'
import { TRACK } from '#app/modules/analytics/track-names.ts'
import { CART_COOKIE } from '#app/modules/cart/cart-cookie.ts'
import { CODE_INTENTS } from '#app/components/discount-code.tsx'
import { CART_INTENTS } from '#app/modules/cart/cart.ts'
import { placeOrder } from '#app/modules/checkout/checkout.server.ts'
import { BROWSER_EVENT_NAMES } from '#app/modules/marketing/validators.ts'
import { completeOrder } from '#app/modules/order/complete.server.ts'
import { markOrderPaid } from '#app/modules/order/mark-paid.server.ts'
import { REVERSAL_CAUSES } from '#app/modules/order/schema.ts'
import { orderLinkToken } from '#app/modules/order/status-link.server.ts'
import { signNotification } from '#app/modules/payment/signature.server.ts'
import { startServices } from '#app/services.server.ts'
import { bogotaDay } from '#app/utils/bogota-days.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { cleanText } from '#app/utils/text.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { createPromotion } from '#tests/promotions.ts'
import {
  answerOf,
  freshContext,
  fuzzedForm,
  fuzzedObject,
  fuzzEndpoint,
  formBody,
  headerSafe,
  hostileText,
  jsonBody,
  reportInputsTried,
  type Encoding,
} from '#tests/fuzz.ts'
import { STOREFRONT_FUZZ_TARGETS } from '#tests/fuzz-targets.ts'
import * as cart from './api/cart.ts'
import * as click from './api/analytics-click.ts'
import * as consent from './api/consent.ts'
import * as webhook from './api/mercadopago-webhook.ts'
import * as metaEvents from './api/meta-events.ts'
import * as municipalities from './api/municipalities.ts'
import * as products from './api/products.ts'
import * as search from './api/search.ts'
import * as shippingQuote from './api/shipping-quote.ts'
import * as checkoutDraft from './api/checkout-draft.ts'
import * as cartRecovery from './tienda/cart-recovery.ts'
import * as view from './api/analytics-view.ts'
import * as cartPage from './tienda/cart.tsx'
import * as checkout from './tienda/checkout.tsx'
import * as checkoutResult from './tienda/checkout-result.tsx'
import * as orderStatus from './tienda/order-status.tsx'
import * as simulatedPayment from './tienda/simulated-payment.tsx'
import * as simulatedWompi from './tienda/simulated-wompi.tsx'
import * as wompiEvents from './api/wompi-events.ts'
import { wompiCheckoutUrl } from '#app/modules/payment/wompi.server.ts'
import { signedWompiEvent } from '#tests/stand-ins/wompi.ts'
import { saveSettings } from '#tests/carrier-quotes.ts'

/**
 * Issue 11: every storefront form action and JSON endpoint fed malformed, huge, wrong-typed and
 * hostile values (tests/fuzz.ts): never a 5xx, a Spanish message whenever it refuses, and a refusal
 * writes nothing. FUZZ_RUNS sets the runs per endpoint.
 */

// A loopback address where nothing listens: the payment simulator is on, its webhook call fails quietly.
const BASE = 'http://127.0.0.1:9'
const t = setupTestDatabase()
let services: Awaited<ReturnType<typeof startServices>>
let sku: string
let categoryId: string

beforeAll(async () => {
  // The real job queue: a refusal must not enqueue a job either (pgboss.job is compared too).
  services = await startServices(parseEnv({ PUBLIC_URL: BASE, META_PIXEL_ID: '123456' }), t.database, {
    workers: false,
  })
  // Unexpected failures are logged; the property decides whether there were any.
  vi.spyOn(logger, 'error').mockImplementation(() => {})
  vi.spyOn(logger, 'warn').mockImplementation(() => {})
  categoryId = (await createCategory(t.db)).id
  sku = (await createProduct(t.db, { stock: 1_000_000, categoryIds: [categoryId] })).sku
  // A code and a limited automatic promotion for the forms to try (they refuse or apply, never fail).
  await createPromotion(t.db, { code: 'FUZZ10', maxUses: 1_000_000, maxUsesPerCustomer: 1_000_000 })
  await createPromotion(t.db, { target: 'shipping', percent: 50, combinable: true, maxUses: 1_000_000 })
})
afterAll(async () => {
  reportInputsTried('storefront-fuzz')
  await services.stop()
  vi.restoreAllMocks()
})

type Form = { fields: [string, string | File][]; how: Encoding; junk: { type: string; body: string } }

function postForm(path: string, form: Form, headers: Record<string, string> = {}) {
  const { body, headers: bodyHeaders } = formBody(form.fields, form.how, form.junk)
  return new Request(`${BASE}${path}`, {
    method: 'POST',
    body,
    headers: { Origin: BASE, ...bodyHeaders, ...headers },
  })
}

function postText(path: string, body: string, headers: Record<string, string> = {}) {
  return new Request(`${BASE}${path}`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'text/plain;charset=UTF-8', Origin: BASE, ...headers },
  })
}

let phones = 0
const nextPhone = () => `31${String(10_000_000 + phones++).padStart(8, '0')}`

async function pendingOnlineOrder(method: 'mercadopago' | 'wompi' | 'transferencia' = 'mercadopago') {
  const placed = await placeOrder(services.checkout, {
    lines: [{ sku, quantity: 1 }],
    customer: {
      name: 'Ana',
      phone: nextPhone(),
      address: 'Calle 1 # 2-3',
      department: 'Antioquia',
      municipality_code: '05001',
      payment_method: method,
      consent: true,
    },
  })
  return placed.order
}

const pendingWompiOrder = () => pendingOnlineOrder('wompi')

/** A transfer order waiting for its money (transfers are turned on for this file's shop). */
async function pendingTransferOrder() {
  await saveSettings(t.db, { paymentTransfer: 'yes', transferBrebKey: '@vitrina-fuzz' })
  return pendingOnlineOrder('transferencia')
}

const receiptPdf = () => new File(['%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n'], 'pago.pdf')

/**
 * An order paid online and delivered just now: every request of its page is open (retracto and
 * reversión), so the fuzzed forms reach the deepest rules. Answers its number and phone.
 */
async function deliveredPaidOrder() {
  const phone = nextPhone()
  const { order } = await placeOrder(services.checkout, {
    lines: [{ sku, quantity: 1 }],
    customer: {
      name: 'Ana',
      phone,
      address: 'Calle 1 # 2-3',
      department: 'Antioquia',
      municipality_code: '05001',
      payment_method: 'mercadopago',
      consent: true,
    },
  })
  await t.db.transaction((tx) =>
    markOrderPaid(tx, order.id, { id: `pago-${order.number}`, status: 'approved' }, services.jobs),
  )
  await completeOrder(t.db, services.jobs, order.id, 'duena@vitrina.test')
  return { number: order.number, phone }
}

/** The fixture's real values in place of their placeholders (a real number, its key, its phone's digits). */
function withRealValues(
  fields: [string, string | File][],
  real: { number: number; key: string; digits: string },
): [string, string | File][] {
  const values: Record<string, string> = {
    'pedido-real': String(real.number),
    '#pedido-real': `#${real.number}`,
    ' pedido-real ': ` ${real.number} `,
    'clave-real': real.key,
    'digitos-reales': real.digits,
  }
  return fields.map(([name, value]) => [name, typeof value === 'string' ? (values[value] ?? value) : value])
}

/** A fuzzed cart cookie as a browser could send it (none when undefined). */
const cartCookieHeaders = (cartCookie: string | undefined): Record<string, string> =>
  cartCookie === undefined
    ? {}
    : { Cookie: `${CART_COOKIE}=${headerSafe(encodeURIComponent(cleanText(cartCookie)))}` }
const cartLines = (lines: unknown) => JSON.stringify(lines)
const cartValues = () => [
  cartLines([{ sku, quantity: 1 }]),
  cartLines([{ sku, quantity: -1 }]),
  cartLines([{ sku, quantity: 1e308 }]),
  cartLines([{ sku, quantity: 2_147_483_648 }]),
  cartLines([{ sku, quantity: 1.5 }]),
  cartLines([{ sku, quantity: '1' }]),
  cartLines([{ sku: `${sku}\u0000`, quantity: 1 }]),
  cartLines([{ sku: "' OR 1=1 --", quantity: 1 }]),
  cartLines(Array.from({ length: 2000 }, () => ({ sku, quantity: 1 }))),
  cartLines({ sku, quantity: 1 }),
  cartLines(null),
  '[{"sku":',
]

const fuzzers: Record<(typeof STOREFRONT_FUZZ_TARGETS)[number], () => Promise<void>> = {
  'routes/tienda/checkout.tsx': () =>
    fuzzEndpoint(
      'POST /finalizar-pedido',
      t.database,
      fc.record({
        form: fuzzedForm(
          {
            name: 'Ana',
            last_name: 'Gómez',
            phone: '3001234567',
            email: 'ana@example.com',
            address: 'Calle 10 # 20-30',
            city: 'Medellín',
            department: 'Antioquia',
            municipality_code: '05001',
            payment_method: 'acordar',
            consent: 'on',
            cart: cartLines([{ sku, quantity: 1 }]),
            checkout_key: randomUUID(),
            discount_code: 'FUZZ10',
            priced_code: 'FUZZ10',
          },
          {
            payment_method: ['mercadopago', 'acordar'],
            cart: cartValues(),
            identification_number: ['1020304050'],
            intent: [CODE_INTENTS.apply, CODE_INTENTS.remove, 'municipios'],
            discount_code: ['fuzz10', 'NOEXISTE', 'FUZZ\u0000', ''],
            priced_code: ['', 'NOEXISTE'],
            priced_total: ['0', '-1', '1e308', '2.5', '5000000'],
          },
        ),
        cartCookie: fc.option(hostileText, { nil: undefined }),
      }),
      ({ form, cartCookie }) => {
        const request = postForm('/finalizar-pedido', form, cartCookieHeaders(cartCookie))
        return answerOf(() =>
          checkout.action({ request, params: {}, context: freshContext(services) } as never),
        )
      },
      // A checkout shown again with its errors is one the shopper has not finished: with a phone
      // and the authorization ticked it is kept (or forgotten, unticked) for "Pedidos sin terminar".
      { allowedWrites: ['public.checkout_drafts'] },
    ),

  'routes/tienda/cart.tsx': () =>
    fuzzEndpoint(
      'POST /carrito',
      t.database,
      fc.record({
        form: fuzzedForm(
          { intent: 'add', sku, quantity: '1' },
          {
            intent: [...CART_INTENTS, CODE_INTENTS.apply, CODE_INTENTS.remove],
            quantity: ['0', '-1', '1e308', '2.5', '99999999999'],
            discount_code: ['FUZZ10', 'fuzz 10', 'NOEXISTE', 'X'.repeat(41)],
          },
        ),
        cartCookie: fc.option(hostileText, { nil: undefined }),
      }),
      ({ form, cartCookie }) => {
        const request = postForm('/carrito', form, cartCookieHeaders(cartCookie))
        return answerOf(() =>
          cartPage.action({ request, params: {}, context: freshContext(services) } as never),
        )
      },
    ),

  'routes/tienda/checkout-result.tsx': async () => {
    const post = (form: Form, orderId: string) => {
      const fields = form.fields.map(([name, value]): [string, string | File] =>
        name === 'pedido' && value === 'pedido-real' ? [name, orderId] : [name, value],
      )
      const request = postForm('/finalizar-pedido/success', { ...form, fields })
      return answerOf(() =>
        checkoutResult.action({ request, params: {}, context: freshContext(services) } as never),
      )
    }
    await fuzzEndpoint(
      'POST /finalizar-pedido/{success,pending,failure}',
      t.database,
      fuzzedForm({ pedido: 'pedido-real' }, { pedido: ['00000000-0000-0000-0000-000000000000'] }),
      (form, order) => post(form, order.id),
      { fixture: pendingOnlineOrder },
    )
    // A transfer's receipt: real ones (an image, a PDF), hostile files and fields, other orders.
    await fuzzEndpoint(
      'POST /finalizar-pedido/success (comprobante)',
      t.database,
      fuzzedForm(
        { pedido: 'pedido-real', intent: 'comprobante', comprobante: receiptPdf() },
        { pedido: ['00000000-0000-0000-0000-000000000000'], intent: ['comprobante'] },
      ),
      (form, order) => post(form, order.id),
      { fixture: pendingTransferOrder },
    )
  },

  'routes/tienda/simulated-payment.tsx': () =>
    fuzzEndpoint(
      'POST /pago-simulado/:id',
      t.database,
      fc.record({
        form: fuzzedForm(
          { resultado: 'pending' },
          { resultado: ['approved', 'rejected', 'toString', '__proto__'] },
        ),
        id: fc.oneof(
          { arbitrary: fc.constant('pedido-real'), weight: 3 },
          { arbitrary: fc.constant(randomUUID()), weight: 1 },
          { arbitrary: hostileText, weight: 1 },
        ),
      }),
      ({ form, id }, order) => {
        const request = postForm(`/pago-simulado/x`, form)
        const params = { id: id === 'pedido-real' ? order.id : id }
        return answerOf(() =>
          simulatedPayment.action({ request, params, context: freshContext(services) } as never),
        )
      },
      { fixture: pendingOnlineOrder },
    ),

  'routes/tienda/order-status.tsx': async () => {
    // undefined: `/pedido` alone, whose lookup form sends the number as a field.
    const numero = fc.oneof(
      { arbitrary: fc.constant('pedido-real'), weight: 4 },
      { arbitrary: fc.constant(undefined), weight: 1 },
      { arbitrary: fc.constantFrom('1', '0', '2147483648', '9999999999', '00001'), weight: 1 },
      { arbitrary: hostileText, weight: 2 },
    )
    const clave = fc.oneof(
      { arbitrary: fc.constant('clave-real'), weight: 3 },
      { arbitrary: fc.constant(null), weight: 1 },
      { arbitrary: hostileText, weight: 2 },
    )
    const today = bogotaDay(new Date())
    const real = (order: { number: number; phone: string }) => ({
      number: order.number,
      key: orderLinkToken(services.orderLinkSecret, order.number),
      digits: order.phone.slice(-4),
    })
    await fuzzEndpoint(
      'GET /pedido/:numero',
      t.database,
      fc.record({ numero, clave }),
      (input, order) => {
        const values = real(order)
        const pick = (value: string | null) =>
          value === 'pedido-real' ? String(values.number) : value === 'clave-real' ? values.key : value
        const url = new URL(`${BASE}/pedido/x`)
        const key = pick(input.clave)
        if (key !== null) url.searchParams.set('clave', key)
        const params = input.numero === undefined ? {} : { numero: pick(input.numero)! }
        return answerOf(() =>
          orderStatus.loader({
            request: new Request(url),
            url,
            params,
            context: freshContext(services),
          } as never),
        )
      },
      { fixture: deliveredPaidOrder, pageWords: true },
    )
    const options = {
      intent: ['consultar', 'retracto', 'reversion', 'toString', '__proto__'],
      numero: ['pedido-real', '#pedido-real', ' pedido-real '],
      clave: ['clave-real', ''],
      digitos: ['digitos-reales', '0000', '123', '12345'],
      motivo: [...REVERSAL_CAUSES],
      fecha: [today, '2020-01-01', '9999-12-31', '2026-02-30', today.replaceAll('-', '/')],
      descripcion: ['x'.repeat(501)],
    }
    await fuzzEndpoint(
      'POST /pedido/:numero',
      t.database,
      fc.record({
        numero,
        // Each of the page's three forms, from its valid fields.
        form: fc.oneof(
          fuzzedForm({ intent: 'consultar', numero: 'pedido-real', digitos: 'digitos-reales' }, options),
          fuzzedForm({ intent: 'retracto', clave: 'clave-real', descripcion: 'No me quedó bien.' }, options),
          fuzzedForm(
            {
              intent: 'reversion',
              clave: 'clave-real',
              motivo: 'defectuoso',
              fecha: today,
              descripcion: 'Llegó roto.',
            },
            options,
          ),
        ),
      }),
      ({ numero, form }, order) => {
        const values = real(order)
        const fields = withRealValues(form.fields, values)
        const request = postForm(`/pedido/x`, { ...form, fields })
        const params =
          numero === undefined ? {} : { numero: numero === 'pedido-real' ? String(values.number) : numero }
        return answerOf(() =>
          orderStatus.action({ request, params, context: freshContext(services) } as never),
        )
      },
      { fixture: deliveredPaidOrder },
    )
  },

  'routes/api/consent.ts': () =>
    fuzzEndpoint(
      'POST /api/consentimiento',
      t.database,
      fc.record({
        form: fuzzedForm(
          { eleccion: 'seleccion', analitica: 'si', volver: '/producto/x' },
          {
            eleccion: ['todo', 'nada', 'seleccion'],
            publicidad: ['si'],
            volver: ['/admin', '//evil.example', '/?preferencias', '/?utm_source=fb&utm_campaign=x'],
            origen: ['https://l.instagram.com/', 'android-app://com.x', 'javascript:alert(1)'],
          },
        ),
        json: fc.boolean(),
        origin: fc.constantFrom(BASE, BASE, BASE, BASE, 'https://evil.example', 'null'),
        cookie: fc.option(
          hostileText.map((text) => `${CONSENT_COOKIE}=${headerSafe(text)}`),
          { nil: undefined },
        ),
      }),
      ({ form, json, origin, cookie }) => {
        const headers: Record<string, string> = { Origin: origin }
        if (json) headers.Accept = 'application/json'
        if (cookie) headers.Cookie = cookie
        const request = postForm('/api/consentimiento', form, headers)
        return answerOf(() =>
          consent.action({ request, params: {}, context: freshContext(services) } as never),
        )
      },
    ),

  'routes/api/analytics-click.ts': () =>
    fuzzEndpoint(
      'POST /api/analitica/clic',
      t.database,
      jsonBody(fuzzedObject({ element_name: TRACK.whatsapp }, { element_name: Object.values(TRACK) })),
      (body) => {
        const request = postText('/api/analitica/clic', body, { Cookie: analyticsConsent() })
        return answerOf(() => click.action({ request, params: {}, context: freshContext(services) } as never))
      },
    ),

  'routes/api/analytics-view.ts': () =>
    fuzzEndpoint(
      'POST /api/analitica/vista',
      t.database,
      jsonBody(
        fuzzedObject(
          { page_title: 'Inicio', time_spent: 12, new_visit: true },
          { time_spent: [-1, 1e308, Number.MAX_SAFE_INTEGER, 0.5, '12'], new_visit: [false, 'true', 1] },
        ),
      ),
      (body) => {
        const request = postText('/api/analitica/vista', body, { Cookie: analyticsConsent() })
        return answerOf(() => view.action({ request, params: {}, context: freshContext(services) } as never))
      },
    ),

  'routes/api/meta-events.ts': () =>
    fuzzEndpoint(
      'POST /api/eventos-meta',
      t.database,
      jsonBody(
        fuzzedObject(
          {
            eventName: 'AddToCart',
            eventId: 'evento-1',
            eventSourceUrl: `${BASE}/producto/x`,
            customData: { currency: 'COP', value: 1000, content_ids: [sku] },
          },
          {
            eventName: BROWSER_EVENT_NAMES,
            customData: [
              { value: -1 },
              { value: 1e308 },
              { content_ids: ['\u0000'] },
              { content_name: '\u0000<script>' },
              { search_string: 'x'.repeat(300) },
              { num_items: 1.5 },
              { extra: 1 },
            ],
          },
        ),
      ),
      (body) => {
        const request = postText('/api/eventos-meta', body, {
          'Content-Type': 'application/json',
          Cookie: analyticsConsent(),
        })
        return answerOf(() =>
          metaEvents.action({ request, params: {}, context: freshContext(services) } as never),
        )
      },
    ),

  'routes/api/mercadopago-webhook.ts': () =>
    fuzzEndpoint(
      'POST /api/webhooks/mercadopago',
      t.database,
      fc.record({
        dataId: fc.oneof(
          { arbitrary: fc.constant('123456'), weight: 3 },
          { arbitrary: fc.constantFrom('1', '-1', '1e3', ''), weight: 1 },
          { arbitrary: hostileText, weight: 1 },
        ),
        requestId: fc.option(fc.oneof(fc.constant('r-1'), hostileText.map(headerSafe)), { nil: null }),
        signed: fc.constantFrom('bien', 'bien', 'bien', 'mal', 'ninguna'),
        topic: fc.option(hostileText, { nil: undefined }),
        body: jsonBody(fuzzedObject({ type: 'payment', action: 'payment.updated', data: { id: '123456' } })),
      }),
      ({ dataId, requestId, signed, topic, body }) => {
        const url = new URL(`${BASE}/api/webhooks/mercadopago`)
        url.searchParams.set('data.id', dataId)
        if (topic !== undefined) url.searchParams.set('type', topic)
        const ts = String(Date.now())
        const secret = services.simulator!.webhookSecret
        const headers: Record<string, string> = { 'Content-Type': 'application/json' }
        if (requestId !== null) headers['x-request-id'] = requestId
        // The signature names the id as the URL carries it back (a lone surrogate is sent as U+FFFD).
        const sentId = url.searchParams.get('data.id')
        if (signed === 'bien')
          headers['x-signature'] = signNotification(secret, { dataId: sentId, requestId, ts })
        if (signed === 'mal') headers['x-signature'] = `ts=${ts},v1=${'0'.repeat(64)}`
        const request = new Request(url, { method: 'POST', body, headers })
        return answerOf(() =>
          webhook.action({ request, params: {}, context: freshContext(services) } as never),
        )
      },
    ),

  'routes/tienda/simulated-wompi.tsx': () =>
    fuzzEndpoint(
      'POST /pago-simulado-wompi',
      t.database,
      fc.record({
        form: fuzzedForm({ resultado: 'pending' }, { resultado: ['approved', 'rejected', 'valueOf'] }),
        link: fc.constantFrom('firmado', 'firmado', 'otro monto', 'sin firma'),
        reference: fc.oneof(
          { arbitrary: fc.constant('pedido-real'), weight: 3 },
          { arbitrary: fc.constant(randomUUID()), weight: 1 },
          { arbitrary: hostileText, weight: 1 },
        ),
        redirect: fc.oneof(fc.constant(`${BASE}/finalizar-pedido/wompi`), hostileText),
      }),
      ({ form, link, reference, redirect }, order) => {
        const signed = new URL(
          wompiCheckoutUrl(
            { checkoutUrl: `${BASE}/pago-simulado-wompi`, ...services.wompiSimulator!.keys },
            {
              reference: reference === 'pedido-real' ? order.id : reference,
              amountInCents: order.total,
              redirectUrl: redirect,
            },
          ),
        )
        if (link === 'otro monto') signed.searchParams.set('amount-in-cents', '100')
        if (link === 'sin firma') signed.searchParams.delete('signature:integrity')
        const request = postForm(`/pago-simulado-wompi${signed.search}`, form)
        return answerOf(() =>
          simulatedWompi.action({
            request,
            url: new URL(request.url),
            params: {},
            context: freshContext(services),
          } as never),
        )
      },
      { fixture: pendingWompiOrder },
    ),

  'routes/api/wompi-events.ts': () =>
    fuzzEndpoint(
      'POST /api/webhooks/wompi',
      t.database,
      fc.record({
        id: fc.oneof(
          { arbitrary: fc.constant('11111-1700000000-12345'), weight: 3 },
          { arbitrary: hostileText, weight: 1 },
        ),
        status: fc.oneof(fc.constantFrom('APPROVED', 'DECLINED', 'PENDING', 'VOIDED'), hostileText),
        amount: fc.oneof(fc.integer(), fc.constant(Number.MAX_SAFE_INTEGER + 2)),
        reference: fc.oneof(fc.constant('pedido-real'), hostileText),
        signed: fc.constantFrom('bien', 'bien', 'mal', 'ninguna'),
        extra: fuzzedObject({ environment: 'test' }),
      }),
      ({ id, status, amount, reference, signed, extra }, order) => {
        const event: Record<string, unknown> = {
          ...signedWompiEvent(
            {
              id,
              status,
              amount_in_cents: amount,
              reference: reference === 'pedido-real' ? order.id : reference,
            },
            services.wompiSimulator!.keys.eventsSecret,
          ),
          extra,
        }
        if (signed === 'mal') event.signature = { properties: ['transaction.id'], checksum: '0'.repeat(64) }
        if (signed === 'ninguna') delete event.signature
        const request = postText('/api/webhooks/wompi', JSON.stringify(event), {
          'Content-Type': 'application/json',
        })
        return answerOf(() =>
          wompiEvents.action({ request, params: {}, context: freshContext(services) } as never),
        )
      },
      { fixture: pendingWompiOrder },
    ),

  'routes/api/cart.ts': () =>
    fuzzEndpoint(
      'GET /api/carrito',
      t.database,
      fc.record({
        skus: fc.array(fc.oneof(fc.constant(sku), hostileText), { maxLength: 60 }),
        // The cart page's quote: the lines in the cookie's words, the code and the shown shipping.
        quote: fc.option(
          fc.record({
            lineas: fc.oneof(fc.constant(`${sku}:2`), hostileText),
            codigo: fc.oneof(fc.constant('FUZZ10'), hostileText),
            envio: fc.oneof(fc.constant('800000'), hostileText),
          }),
          { nil: undefined },
        ),
      }),
      ({ skus, quote }) => getJson(cart.loader, '/api/carrito', { skus: skus.join(','), ...quote }),
    ),

  'routes/api/search.ts': () =>
    fuzzEndpoint('GET /api/buscar', t.database, hostileText, (q) =>
      getJson(search.loader, '/api/buscar', { q }),
    ),

  'routes/api/products.ts': () =>
    fuzzEndpoint(
      'GET /api/productos',
      t.database,
      fc.record(
        {
          desde: hostileText,
          categoria: fc.oneof(fc.constant(categoryId), hostileText),
          q: hostileText,
          cursor: hostileText,
        },
        { requiredKeys: [] },
      ),
      (query) => getJson(products.loader, '/api/productos', query),
    ),

  'routes/api/municipalities.ts': () =>
    fuzzEndpoint(
      'GET /api/municipios',
      t.database,
      fc.oneof(fc.constant('05'), hostileText),
      (departamento) => getJson(municipalities.loader, '/api/municipios', { departamento }),
    ),

  'routes/api/shipping-quote.ts': () =>
    fuzzEndpoint(
      'GET /api/envio',
      t.database,
      fc.oneof(fc.constant('05001'), fc.constant('99999'), hostileText),
      (municipio) => getJson(shippingQuote.loader, '/api/envio', { municipio }),
    ),

  'routes/api/checkout-draft.ts': () =>
    fuzzEndpoint(
      'POST /api/pedido-borrador',
      t.database,
      fuzzedForm(
        {
          phone: '3001234567',
          name: 'Ana',
          email: 'ana@example.com',
          consent: 'on',
          cart: `[{"sku":"${sku}","quantity":1}]`,
        },
        { consent: ['', 'off'], cart: ['[]', '{}', `[{"sku":"${sku}","quantity":-1}]`] },
      ),
      (form) =>
        answerOf(() =>
          checkoutDraft.action({
            request: postForm('/api/pedido-borrador', form),
            params: {},
            context: freshContext(services),
          } as never),
        ),
    ),

  'routes/tienda/cart-recovery.ts': () =>
    fuzzEndpoint('GET /carrito/recuperar/:token', t.database, hostileText, (token) => {
      // The router hands the loader the decoded segment; the request's own path is not read.
      const request = new Request(`${BASE}/carrito/recuperar/x`)
      return answerOf(() =>
        cartRecovery.loader({ request, params: { token }, context: freshContext(services) } as never),
      )
    }),
}

function analyticsConsent() {
  return `${CONSENT_COOKIE}=${encodeURIComponent(
    serializeConsent({ version: CONSENT_POLICY_VERSION, analytics: true, advertising: true }),
  )}`
}

function getJson(loader: (args: never) => unknown, path: string, query: Record<string, string | undefined>) {
  const url = new URL(`${BASE}${path}`)
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.set(name, value)
  const request = new Request(url)
  return answerOf(() => loader({ request, url, params: {}, context: freshContext(services) } as never))
}

test.each(STOREFRONT_FUZZ_TARGETS)(
  '%s survives hostile input',
  async (file) => {
    await fuzzers[file]()
  },
  120_000,
)
