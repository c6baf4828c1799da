import { expect, test } from 'vitest'
import { formatCOP } from '#app/utils/money.ts'
import { freeShippingBadgeText, productShippingNotice } from './shipping-notices.server.ts'

const rules = { shippingCost: 8_000_00, freeShippingThreshold: 100_000_00 }
const plain = (text: string) => text.replace(/\s/g, ' ')

test('the free-shipping threshold is written as the cart and checkout write money: two decimals', () => {
  expect(plain(productShippingNotice(50_000_00, rules))).toBe(
    'Envío gratis en compras superiores a $ 100.000,00',
  )
  expect(freeShippingBadgeText(rules)).toBe(`En compras superiores a ${formatCOP(100_000_00)}`)
})
