import { describe, expect, test } from 'vitest'
import {
  confirmationChatUrl,
  confirmationMessage,
  shippedChatUrl,
  shippedMessage,
} from './whatsapp-confirmation.ts'

const order = {
  number: 1042,
  customerName: 'Ana',
  customerPhone: '3001234567',
  customerAddress: 'Calle 10 # 20-30',
  customerCity: 'Medellín',
  customerDepartment: 'Antioquia',
  total: 9_500_000,
  items: [
    { title: 'Collar Luna', quantity: 2, unitPrice: 4_500_000 },
    { title: 'Aretes Sol', quantity: 1, unitPrice: 500_000 },
  ],
}

test('the message names the order, its items, the total to pay on delivery and the address', () => {
  const text = confirmationMessage(order, 'Vitrina Accesorios')
  const nbsp = '\u00a0'
  expect(text).toBe(
    [
      'Hola Ana, te escribimos de Vitrina Accesorios para confirmar tu pedido #1042:',
      `- 2 × Collar Luna ($${nbsp}45.000,00 c/u)`,
      `- 1 × Aretes Sol ($${nbsp}5.000,00 c/u)`,
      `Total a pagar contra entrega: $${nbsp}95.000,00`,
      'Dirección de entrega: Calle 10 # 20-30, Medellín, Antioquia',
      '¿Nos confirmas que los datos están bien para enviarlo?',
    ].join('\n'),
  )
})

test('the chat opens on 57 + the 10-digit number with the message typed', () => {
  const url = new URL(confirmationChatUrl(order, 'Vitrina'))
  expect(url.origin + url.pathname).toBe('https://wa.me/573001234567')
  expect(url.searchParams.get('text')).toBe(confirmationMessage(order, 'Vitrina'))
  expect(new URL(confirmationChatUrl({ ...order, customerPhone: '57 300 123 4567' }, 'V')).pathname).toBe(
    '/573001234567',
  )
})

test("the order's page goes with the message when the shop gives it", () => {
  const text = confirmationMessage(order, 'Vitrina', 'https://tienda.example/pedido/1042?clave=abc')
  expect(text.split('\n').slice(-2)).toEqual([
    'Sigue tu pedido aquí: https://tienda.example/pedido/1042?clave=abc',
    '¿Nos confirmas que los datos están bien para enviarlo?',
  ])
})

const withGuia = {
  ...order,
  carrier: 'Servientrega',
  trackingNumber: '36000000001',
  trackingUrl: 'https://envia.com/es-CO/rastreo?label=36000000001',
}
const STATUS_URL = 'https://tienda.example/pedido/1042?clave=abc'

test('the confirmation lists the guía and its tracking page when the order has one', () => {
  const lines = confirmationMessage(withGuia, 'Vitrina', STATUS_URL).split('\n')
  expect(lines.slice(-4)).toEqual([
    'Envío: Servientrega, guía 36000000001',
    'Rastrea el envío: https://envia.com/es-CO/rastreo?label=36000000001',
    `Sigue tu pedido aquí: ${STATUS_URL}`,
    '¿Nos confirmas que los datos están bien para enviarlo?',
  ])
  // A guía written by hand, without carrier nor tracking page.
  const byHand = confirmationMessage({ ...order, carrier: null, trackingNumber: '7001' }, 'Vitrina')
  expect(byHand).toContain('\nEnvío: guía 7001\n')
  expect(byHand).not.toContain('Rastrea el envío')
  // No guía: no line about it.
  expect(confirmationMessage({ ...order, carrier: 'Servientrega', trackingNumber: null }, 'V')).not.toContain(
    'Envío:',
  )
})

describe('shippedMessage', () => {
  const nbsp = '\u00a0'

  test('unpaid cash on delivery: the carrier, the guía, its tracking page, the total to have ready and the buyer’s page', () => {
    const text = shippedMessage(
      { ...withGuia, paymentMethod: 'acordar', status: 'pendiente de pago' },
      'Vitrina Accesorios',
      STATUS_URL,
    )
    expect(text).toBe(
      [
        'Hola Ana, tu pedido #1042 de Vitrina Accesorios ya va en camino.',
        'Envío: Servientrega, guía 36000000001',
        'Rastrea el envío: https://envia.com/es-CO/rastreo?label=36000000001',
        `Total a pagar contra entrega: $${nbsp}95.000,00`,
        `Sigue tu pedido aquí: ${STATUS_URL}`,
      ].join('\n'),
    )
  })

  test('nothing to pay when paid: online, or cash on delivery already paid', () => {
    for (const paid of [
      { paymentMethod: 'mercadopago', status: 'pagado' },
      { paymentMethod: 'acordar', status: 'pagado' },
    ]) {
      const text = shippedMessage({ ...withGuia, ...paid }, 'Vitrina', STATUS_URL)
      expect(text).not.toContain('Total a pagar')
      expect(text).toContain('guía 36000000001')
      expect(text).toContain(STATUS_URL)
    }
  })

  test('without the buyer’s page or tracking page, those lines are left out', () => {
    const text = shippedMessage(
      { ...order, carrier: 'Mensajero', trackingNumber: '9', paymentMethod: 'mercadopago', status: 'pagado' },
      'Vitrina',
    )
    expect(text).toBe(
      ['Hola Ana, tu pedido #1042 de Vitrina ya va en camino.', 'Envío: Mensajero, guía 9'].join('\n'),
    )
  })

  test('the chat opens on the buyer’s number with the shipped message typed', () => {
    const shipped = {
      ...withGuia,
      customerPhone: '+57 300 123 4567',
      paymentMethod: 'acordar',
      status: 'pendiente de pago',
    }
    const url = new URL(shippedChatUrl(shipped, 'Vitrina', STATUS_URL))
    expect(url.origin + url.pathname).toBe('https://wa.me/573001234567')
    expect(url.searchParams.get('text')).toBe(shippedMessage(shipped, 'Vitrina', STATUS_URL))
  })
})

test('an order with promotions says each discount by name and the discounted total to pay', () => {
  const nbsp = '\u00a0'
  const text = confirmationMessage(
    {
      ...order,
      total: 10_600_000,
      items: [
        { title: 'Collar Luna', quantity: 2, unitPrice: 4_500_000 },
        { title: 'Aretes Sol', quantity: 1, unitPrice: 2_000_000 },
      ],
      discounts: [
        { name: 'Black Friday', amount: 900_000 },
        { name: 'Cupón de Laura (LAURA10)', amount: 700_000 },
      ],
    },
    'Vitrina',
  )
  expect(text.split('\n').slice(1, 6)).toEqual([
    `- 2 × Collar Luna ($${nbsp}45.000,00 c/u)`,
    `- 1 × Aretes Sol ($${nbsp}20.000,00 c/u)`,
    `Descuento Black Friday: -$${nbsp}9.000,00`,
    `Descuento Cupón de Laura (LAURA10): -$${nbsp}7.000,00`,
    `Total a pagar contra entrega: $${nbsp}106.000,00`,
  ])
})
