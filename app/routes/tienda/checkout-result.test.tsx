import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { expect, test } from 'vitest'
import CheckoutResult, { RESULT_NOTES } from './checkout-result.tsx'

type LoaderData = { outcome: 'success' | 'pending' | 'failure'; order: object | null }

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
  expect(html).toContain(RESULT_NOTES.confirming)
  expect(html).toContain('confirmando el pago')
  expect(html).not.toContain('pendiente de pago')
  const paid = render({
    outcome: 'success',
    order: { ...ORDER, paymentMethod: 'mercadopago', status: 'pagado' },
  })
  expect(paid).not.toContain(RESULT_NOTES.confirming)
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
    RESULT_NOTES.pending,
  )
})
