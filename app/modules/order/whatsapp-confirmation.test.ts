import { expect, test } from 'vitest'
import { confirmationChatUrl, confirmationMessage } from './whatsapp-confirmation.ts'

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
