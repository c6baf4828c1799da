import { CHECKOUT_TEXT_FIELDS, CHECKOUT_WORDS, PLACE_FIELD_WORDS } from '#app/modules/checkout/form-values.ts'
import { CHECKOUT_PAYMENT_LABELS } from '#app/modules/checkout/payment-methods.ts'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, Outlet } from 'react-router'
import { expect, test } from 'vitest'
import { IDENTIFICATION_TYPES } from '#app/modules/order/customer-fields.ts'
import { DEPARTMENT_NAMES } from '#app/modules/places/departments.ts'
import { formatCOP } from '#app/utils/money.ts'
import CheckoutPage from './checkout.tsx'

/** The checkout page as the server draws it, under the store layout's data, after an answer. */

const PRODUCT = {
  sku: 'COL-CAT-ABCDEFGH',
  name: 'Collar Luna',
  price: 5_000_000,
  finalPrice: 4_000_000,
  discountPercent: 20,
  available: 30,
  image: null,
}

function render(actionData: object | undefined, loaderExtra: object = {}) {
  const loaderData = {
    zones: [],
    liveQuotes: false,
    departments: DEPARTMENT_NAMES,
    identificationTypes: Object.entries(IDENTIFICATION_TYPES),
    fields: CHECKOUT_TEXT_FIELDS,
    words: CHECKOUT_WORDS,
    placeWords: PLACE_FIELD_WORDS,
    paymentMethods: [{ method: 'acordar', label: CHECKOUT_PAYMENT_LABELS.acordar }],
    checkoutKey: '6f1c1f7e-2b1a-4a57-9a53-0d5f5f0c1a01',
    shipping: { shippingCost: 800_000, freeShippingThreshold: 10_000_000 },
    rendered: { lines: [{ sku: PRODUCT.sku, quantity: 11 }], products: [PRODUCT] },
    ...loaderExtra,
  }
  const layoutData = { store: { whatsappNumber: '573001112233' } }
  const Stub = createRoutesStub([
    {
      id: 'routes/tienda/layout',
      path: '/',
      Component: Outlet,
      loader: () => layoutData,
      children: [
        {
          id: 'checkout',
          path: 'finalizar-pedido',
          Component: CheckoutPage as unknown as React.ComponentType,
          loader: () => loaderData,
          action: () => actionData,
        },
      ],
    },
  ])
  return renderToString(
    <Stub
      initialEntries={['/finalizar-pedido']}
      hydrationData={{
        loaderData: { 'routes/tienda/layout': layoutData, checkout: loaderData },
        actionData: actionData ? { checkout: actionData } : undefined,
      }}
    />,
  )
}

test('the cart from its cookie is drawn on the server: lines and totals before any script runs', () => {
  const html = render(undefined).replaceAll('<!-- -->', '')
  expect(html).toContain('Collar Luna × 11')
  expect(html).toContain(`data-testid="checkout-total">${formatCOP(44_000_000)}<`)
  expect(html).not.toContain('Tu carrito está vacío')
  expect(html).not.toContain('order-by-whatsapp')
})

test('an order over the unit limit gets "Hacer este pedido por WhatsApp" with the cart written out', () => {
  const html = render({
    ok: false,
    message: 'Un pedido en línea puede apartar hasta 10 unidades.',
    at: 1,
    messages: ['Un pedido en línea puede apartar hasta 10 unidades.'],
    fieldErrors: {},
    checkoutKey: '6f1c1f7e-2b1a-4a57-9a53-0d5f5f0c1a02',
    whatsappOrder: `https://wa.me/573001112233?text=${encodeURIComponent(
      `Hola, quiero hacer este pedido:\n- Collar Luna × 11\nTotal: ${formatCOP(44_000_000)}`,
    )}`,
  })
  const link = /<a href="(https:\/\/wa\.me\/[^"]+)"[^>]*data-testid="order-by-whatsapp"/.exec(html)
  expect(link).not.toBeNull()
  const url = new URL(link![1]!.replaceAll('&amp;', '&'))
  expect(url.pathname).toBe('/573001112233')
  expect(url.searchParams.get('text')).toBe(
    `Hola, quiero hacer este pedido:\n- Collar Luna × 11\nTotal: ${formatCOP(44_000_000)}`,
  )
  expect(html).toContain('Hacer este pedido por WhatsApp')
})

test('without scripts, the form shown again prices shipping with the posted municipality’s quote', () => {
  const oneCollar = { rendered: { lines: [{ sku: PRODUCT.sku, quantity: 1 }], products: [PRODUCT] } }
  const shownAgain = (shippingQuote: object | null, zones: object[] = []) =>
    render(
      {
        // As "Ver municipios" answers (refusedAnswer, 200).
        ok: false,
        message: '',
        at: 1,
        messages: [],
        fieldErrors: {},
        values: { department: 'Bogotá D.C.', municipality_code: '11001' },
        municipalities: [{ code: '11001', name: 'Bogotá, D.C.' }],
        checkoutKey: '6f1c1f7e-2b1a-4a57-9a53-0d5f5f0c1a03',
        whatsappOrder: null,
        shippingQuote,
      },
      { ...oneCollar, liveQuotes: true, zones },
    ).replaceAll('<!-- -->', '')
  const quote = { municipio: '11001', shipping: 1_245_050, note: 'Envío con Servientrega · 2 días' }

  const quoted = shownAgain(quote)
  expect(quoted).toContain(`data-testid="checkout-total">${formatCOP(4_000_000 + 1_245_050)}<`)
  expect(quoted).toContain('Envío con Servientrega · 2 días')

  // No quote: the flat cost, and no carrier line.
  const flat = shownAgain(null)
  expect(flat).toContain(`data-testid="checkout-total">${formatCOP(4_000_000 + 800_000)}<`)
  expect(flat).not.toContain('Envío con')

  // The owner's own price for the place wins over the quote.
  const zoned = shownAgain(quote, [{ code: '11', cost: 500_000, cashOnDelivery: true }])
  expect(zoned).toContain(`data-testid="checkout-total">${formatCOP(4_000_000 + 500_000)}<`)
  expect(zoned).not.toContain('Envío con')
})

test('the ways to pay are the ones the shop offers now, cash on delivery first and chosen', () => {
  const offered = (['acordar', 'mercadopago', 'wompi', 'transferencia'] as const).map((method) => ({
    method,
    label: CHECKOUT_PAYMENT_LABELS[method],
  }))
  const html = render(undefined, { paymentMethods: offered })
  const radios = [...html.matchAll(/<input[^>]*name="payment_method"[^>]*>/g)].map(([tag]) => [
    /value="(\w+)"/.exec(tag)?.[1],
    tag.includes('checked=""'),
  ])
  expect(radios).toEqual([
    ['acordar', true],
    ['mercadopago', false],
    ['wompi', false],
    ['transferencia', false],
  ])
  expect(html).toContain('PSE, Nequi, Botón Bancolombia o tarjeta con Wompi')
  expect(html).toContain('Transferencia o Bre-B')
  expect(render(undefined)).not.toContain('value="wompi"')
})
