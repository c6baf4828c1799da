import { expect, test } from 'vitest'
import { whatsappLink } from './whatsapp-link.ts'
import { normalizeWhatsappNumber } from './whatsapp.ts'

test('a Colombian mobile, however typed, becomes 57 and its 10 digits', () => {
  for (const typed of ['300 123 4567', '+57 300-123-4567', '573001234567', '(300) 123.4567'])
    expect(normalizeWhatsappNumber(typed), typed).toBe('573001234567')
})

test('anything else is not a WhatsApp number', () => {
  for (const typed of ['', '6012345678', '30012345', '5730012345678', '1 300 123 4567', 'abc'])
    expect(normalizeWhatsappNumber(typed), typed).toBeNull()
})

test('the chat link carries the text encoded', () => {
  expect(whatsappLink('573001234567', 'Hola, ¿pedido #12?')).toBe(
    `https://wa.me/573001234567?text=${encodeURIComponent('Hola, ¿pedido #12?')}`,
  )
})
