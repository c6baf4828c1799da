import { TRANSFER_MESSAGES } from '#app/modules/payment/transfer.ts'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { expect, test } from 'vitest'
import CheckoutResult, { RESULT_NOTES } from './checkout-result.tsx'

type LoaderData = {
  outcome: 'success' | 'pending' | 'failure'
  order: object | null
  transfer?: object | null
}

const ORDER = {
  id: '6f1c1f7e-2b1a-4a57-9a53-0d5f5f0c1a01',
  number: 1001,
  status: 'pendiente de pago',
  paymentMethod: 'acordar',
  items: [{ productSku: 'COL-CAT-ABCDEFGH', title: 'Collar', quantity: 1, unitPrice: 4_500_000 }],
  subtotal: 4_500_000,
  shippingCost: 0,
  total: 4_500_000,
}

function render(loaderData: LoaderData) {
  const Page = CheckoutResult as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'result', path: '/finalizar-pedido/success', Component: Page, loader: () => loaderData },
  ])
  return renderToString(
    <Stub
      initialEntries={['/finalizar-pedido/success']}
      hydrationData={{ loaderData: { result: loaderData } }}
    />,
  )
}

const NOTE = 'Pagas al recibir tu pedido: el pago es contra entrega.'

test('cash on delivery: under "¡Pago Exitoso!" the page says payment is made on delivery', () => {
  const html = render({ outcome: 'success', order: ORDER })
  expect(html).toContain('¡Pago Exitoso!')
  expect(html).toContain(NOTE)
  expect(html.indexOf(NOTE)).toBeGreaterThan(html.indexOf('¡Pago Exitoso!'))
  expect(html).toContain('pendiente de pago')
})

test('an order paid online, or one already paid, does not get that line', () => {
  expect(render({ outcome: 'success', order: { ...ORDER, paymentMethod: 'mercadopago' } })).not.toContain(
    NOTE,
  )
  expect(render({ outcome: 'success', order: { ...ORDER, status: 'pagado' } })).not.toContain(NOTE)
  expect(render({ outcome: 'success', order: null })).not.toContain(NOTE)
})

test('an online payment back on the success page before its notice says it is being confirmed', () => {
  const html = render({
    outcome: 'success',
    order: { ...ORDER, paymentMethod: 'mercadopago', status: 'pendiente de pago' },
  })
  expect(html).toContain(RESULT_NOTES.confirming('Mercado Pago'))
  expect(html).toContain('confirmando el pago')
  expect(html).not.toContain('pendiente de pago')
  const paid = render({
    outcome: 'success',
    order: { ...ORDER, paymentMethod: 'mercadopago', status: 'pagado' },
  })
  expect(paid).not.toContain('lo estamos confirmando')
  expect(paid).toContain('pagado')
})

test('the failure page tells how the order stands: still held, cancelled, or already paid', () => {
  const failed = (status: string) =>
    render({ outcome: 'failure', order: { ...ORDER, paymentMethod: 'mercadopago', status } })
  expect(failed('pendiente de pago')).toContain(RESULT_NOTES.failedStillHeld)
  expect(failed('pendiente de pago')).toContain('Intentar pagar de nuevo')
  const cancelled = failed('cancelado')
  expect(cancelled).toContain(RESULT_NOTES.failedCancelled)
  expect(cancelled).not.toContain('sigue reservado')
  expect(cancelled).not.toContain('Intentar pagar de nuevo')
  expect(failed('pagado')).toContain(RESULT_NOTES.alreadyPaid)
  expect(failed('pagado')).not.toContain('sigue reservado')
  expect(render({ outcome: 'pending', order: { ...ORDER, paymentMethod: 'mercadopago' } })).toContain(
    RESULT_NOTES.pending('Mercado Pago'),
  )
})

test('a Wompi payment is named as Wompi, and its failure offers to pay again', () => {
  const confirming = render({ outcome: 'success', order: { ...ORDER, paymentMethod: 'wompi' } })
  expect(confirming).toContain(RESULT_NOTES.confirming('Wompi'))
  expect(confirming).not.toContain('Mercado Pago')
  const failed = render({ outcome: 'failure', order: { ...ORDER, paymentMethod: 'wompi' } })
  expect(failed).toContain('Intentar pagar de nuevo')
  expect(render({ outcome: 'pending', order: { ...ORDER, paymentMethod: 'wompi' } })).toContain(
    RESULT_NOTES.pending('Wompi'),
  )
})

const TRANSFER = {
  instructions: {
    brebKey: '@vitrina',
    account: 'Bancolombia ahorros 123-456789-00',
    amount: 4_500_000,
    reference: 1001,
    deadline: '2026-11-21T03:00:00.000Z',
  },
  receiptUploaded: false,
}

test('a transfer order: where to pay, the exact amount, the reference, the deadline and the receipt form', () => {
  const html = render({
    outcome: 'success',
    order: { ...ORDER, paymentMethod: 'transferencia' },
    transfer: TRANSFER,
  })
  expect(html).toContain('Paga por transferencia o Bre-B')
  // Under "¡Pago Exitoso!", nothing claims it was paid: the order waits for the money.
  expect(html).toContain('Tu pedido quedó reservado: págalo por transferencia o Bre-B para que lo enviemos.')
  expect(html).toContain('@vitrina')
  expect(html).toContain('Bancolombia ahorros 123-456789-00')
  expect(html).toContain('45.000')
  expect(html).toContain('Referencia: pedido #1001')
  expect(html).toContain('Tienes hasta el 20 de noviembre de 2026 a las 22:00 para pagar')
  expect(html.toLowerCase()).toContain('enctype="multipart/form-data"')
  expect(html).toContain('name="intent" value="comprobante"')
  expect(html).toContain(`name="pedido" value="${ORDER.id}"`)
  expect(html).toContain('Transferencia / Bre-B')
  expect(html).not.toContain(NOTE)
  expect(html).not.toContain('lo estamos confirmando')
  expect(html).not.toContain('Recibimos tu comprobante')
  const received = render({
    outcome: 'success',
    order: { ...ORDER, paymentMethod: 'transferencia' },
    transfer: { ...TRANSFER, receiptUploaded: true },
  })
  expect(received).toContain(TRANSFER_MESSAGES.received)
  // Sent: the order waits for the owner, so no deadline threatens it.
  expect(received).not.toContain('después el pedido se cancela')
  // A transfer is never "paid again" on a provider's page.
  expect(
    render({ outcome: 'failure', order: { ...ORDER, paymentMethod: 'transferencia' }, transfer: TRANSFER }),
  ).not.toContain('Intentar pagar de nuevo')
})

test('an order with promotions: each line’s discount by name under it and its net, each discount row, the discounted total', () => {
  const html = render({
    outcome: 'success',
    order: {
      ...ORDER,
      items: [
        {
          productSku: 'COL-1',
          title: 'Collar Luna',
          quantity: 2,
          unitPrice: 4_500_000,
          net: 8_100_000,
          discounts: [{ name: 'Black Friday', amount: 900_000 }],
        },
        { productSku: 'ARE-1', title: 'Aretes Sol', quantity: 1, unitPrice: 2_000_000 },
      ],
      subtotal: 11_000_000,
      shippingCost: 1_200_000,
      discounts: [
        { name: 'Black Friday', amount: 900_000 },
        { name: 'Envío gratis (ENVIO)', amount: 1_200_000 },
      ],
      total: 10_100_000,
    },
  })
  const text = html.replace(/<!-- -->/g, '').replace(/\u00a0/g, ' ')
  expect(text).toMatch(/Black Friday<\/dt><dd data-testid="order-discount">-\$ 9\.000,00/)
  expect(text).toMatch(/Envío gratis \(ENVIO\)<\/dt><dd data-testid="order-discount">-\$ 12\.000,00/)
  expect(text).toMatch(/data-testid="order-total">\$ 101\.000,00/)
  // Each line at its price: what was taken off shows once, in the rows.
  expect(text).toContain('Collar Luna × 2')
  expect(text).toContain('Aretes Sol × 1')
  expect(text.match(/-\$ 9\.000,00/g)).toHaveLength(1)
})
