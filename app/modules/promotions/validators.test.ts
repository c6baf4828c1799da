import { expect, test } from 'vitest'
import {
  bogotaLocalInput,
  checkPromotionForm,
  describePromotion,
  fromBogotaLocal,
  NEW_PROMOTION_VALUES,
  PROMOTION_MESSAGES,
  promotionAsFormValues,
  promotionFormValues,
  skusOf,
  type PromotionFormValues,
} from './validators.ts'

const form = (overrides: Partial<PromotionFormValues> = {}): PromotionFormValues => ({
  ...NEW_PROMOTION_VALUES,
  name: 'Bienvenida',
  code: 'bienvenida 10',
  ...overrides,
})

const errorsOf = (overrides: Partial<PromotionFormValues>) => {
  const checked = checkPromotionForm(form(overrides))
  return checked.ok ? {} : checked.errors
}

test('a code: normalized to upper case without spaces; percent on the whole order', () => {
  const checked = checkPromotionForm(form({ combinable: true }))
  expect(checked).toEqual({
    ok: true,
    input: {
      name: 'Bienvenida',
      code: 'BIENVENIDA10',
      benefit: 'percent',
      target: 'order',
      percent: 10,
      amount: 0,
      buyQuantity: 0,
      payQuantity: 0,
      productSkus: [],
      categoryIds: [],
      minSubtotal: 0,
      startsAt: null,
      endsAt: null,
      maxUses: null,
      maxUsesPerCustomer: null,
      combinable: true,
      active: true,
    },
  })
})

test('name and code: required, limited, letters digits - and _ only', () => {
  expect(errorsOf({ name: '  ' }).name).toBe(PROMOTION_MESSAGES.nameRequired)
  expect(errorsOf({ name: 'x'.repeat(81) }).name).toBe(PROMOTION_MESSAGES.nameTooLong)
  expect(errorsOf({ code: ' ' }).code).toBe(PROMOTION_MESSAGES.codeRequired)
  expect(errorsOf({ code: 'A'.repeat(41) }).code).toBe(PROMOTION_MESSAGES.codeTooLong)
  expect(errorsOf({ code: 'verano!' }).code).toBe(PROMOTION_MESSAGES.codeCharacters)
  expect(errorsOf({ code: 'canción' }).code).toBe(PROMOTION_MESSAGES.codeCharacters)
  expect(checkPromotionForm(form({ code: 'año_nuevo-26' }))).toMatchObject({
    input: { code: 'AÑO_NUEVO-26' },
  })
  // An automatic promotion has no code, whatever the field holds.
  expect(checkPromotionForm(form({ kind: 'automatica', code: '¡¡' }))).toMatchObject({
    input: { code: null },
  })
  expect(errorsOf({ kind: 'otra' }).kind).toBe(PROMOTION_MESSAGES.kind)
})

test('fixed amounts are typed in pesos as the shop writes them', () => {
  const fixed = (amount: string) => checkPromotionForm(form({ benefit: 'fixed', amount, percent: 'basura' }))
  expect(fixed('15.000')).toMatchObject({ ok: true, input: { amount: 1_500_000, percent: 0 } })
  expect(fixed('$ 15000')).toMatchObject({ ok: true, input: { amount: 1_500_000 } })
  expect(errorsOf({ benefit: 'fixed', amount: '' }).amount).toBe(PROMOTION_MESSAGES.amountRequired)
  expect(errorsOf({ benefit: 'fixed', amount: '0' }).amount).toBe(PROMOTION_MESSAGES.amountPositive)
  expect(errorsOf({ benefit: 'fixed', amount: '15,5' }).amount).toMatch(/pesos enteros/)
  expect(errorsOf({ benefit: 'fixed', amount: '99999999' }).amount).toMatch(
    /no puede superar \$ 20\.000\.000/,
  )
})

test('percent 1 to 100', () => {
  for (const percent of ['0', '101', '', 'diez', '1e2'])
    expect(errorsOf({ percent }).percent).toBe(PROMOTION_MESSAGES.percent)
  expect(checkPromotionForm(form({ percent: '100 %' }))).toMatchObject({ input: { percent: 100 } })
})

test('which benefit goes with which kind and target', () => {
  expect(errorsOf({ benefit: 'buy_x_pay_y' }).benefit).toBe(PROMOTION_MESSAGES.buyPayNeedsAutomatic)
  expect(errorsOf({ benefit: 'set_discount' }).benefit).toBe(PROMOTION_MESSAGES.setDiscountNeedsAutomatic)
  const automatic = { kind: 'automatica' }
  expect(errorsOf({ ...automatic, benefit: 'buy_x_pay_y', target: 'shipping' }).target).toBe(
    PROMOTION_MESSAGES.buyPayTarget,
  )
  expect(errorsOf({ ...automatic, benefit: 'set_discount', target: 'order' }).target).toBe(
    PROMOTION_MESSAGES.setDiscountTarget,
  )
  expect(
    checkPromotionForm(form({ ...automatic, benefit: 'buy_x_pay_y', buyQuantity: '3', payQuantity: '2' })),
  ).toMatchObject({ ok: true, input: { buyQuantity: 3, payQuantity: 2, percent: 0 } })
  // Free shipping: 100 % on the shipping.
  expect(checkPromotionForm(form({ target: 'shipping', percent: '100' }))).toMatchObject({ ok: true })
  expect(errorsOf({ benefit: 'regalo' }).benefit).toBe(PROMOTION_MESSAGES.benefit)
  expect(errorsOf({ target: 'cliente' }).target).toBe(PROMOTION_MESSAGES.target)
})

test('"lleve N pague M": 2 ≤ N ≤ 20 and 1 ≤ M < N', () => {
  const buyPay = (buyQuantity: string, payQuantity: string) =>
    errorsOf({ kind: 'automatica', benefit: 'buy_x_pay_y', buyQuantity, payQuantity })
  expect(buyPay('1', '1').buyQuantity).toBe(PROMOTION_MESSAGES.buyQuantity)
  expect(buyPay('21', '2').buyQuantity).toBe(PROMOTION_MESSAGES.buyQuantity)
  expect(buyPay('3', '3').payQuantity).toBe(PROMOTION_MESSAGES.payQuantity)
  expect(buyPay('3', '0').payQuantity).toBe(PROMOTION_MESSAGES.payQuantity)
  expect(buyPay('20', '19')).toEqual({})
})

test('chosen products: at least one SKU or category; SKUs upper case, each once', () => {
  expect(errorsOf({ target: 'products' }).productSkus).toBe(PROMOTION_MESSAGES.productsRequired)
  expect(
    checkPromotionForm(
      form({ target: 'products', productSkus: 'col-1, COL-1\nare-2;', categoryIds: ['C', 'C'] }),
    ),
  ).toMatchObject({ input: { productSkus: ['COL-1', 'ARE-2'], categoryIds: ['C'] } })
  expect(errorsOf({ target: 'products', productSkus: 'COL<1>' }).productSkus).toBe(
    PROMOTION_MESSAGES.skuCharacters,
  )
  // Another target ignores them.
  expect(checkPromotionForm(form({ productSkus: 'COL-1', categoryIds: ['C'] }))).toMatchObject({
    input: { productSkus: [], categoryIds: [] },
  })
  expect(skusOf(' a b,,c ')).toEqual(['A', 'B', 'C'])
})

test('dates are Bogotá time; the end comes after the start; limits are positive whole numbers', () => {
  const checked = checkPromotionForm(form({ startsAt: '2026-11-27T00:00', endsAt: '2026-11-30T23:59' }))
  expect(checked).toMatchObject({ ok: true })
  if (!checked.ok) return
  expect(checked.input.startsAt!.toISOString()).toBe('2026-11-27T05:00:00.000Z')
  expect(checked.input.endsAt!.toISOString()).toBe('2026-12-01T04:59:00.000Z')
  expect(errorsOf({ startsAt: '2026-11-27T00:00', endsAt: '2026-11-27T00:00' }).endsAt).toBe(
    PROMOTION_MESSAGES.endBeforeStart,
  )
  expect(errorsOf({ startsAt: '2026-02-30T10:00' }).startsAt).toBe(PROMOTION_MESSAGES.date('Empieza'))
  expect(errorsOf({ endsAt: 'mañana' }).endsAt).toBe(PROMOTION_MESSAGES.date('Termina'))
  expect(fromBogotaLocal('2026-11-23T18:05')?.toISOString()).toBe('2026-11-23T23:05:00.000Z')
  expect(bogotaLocalInput(new Date('2026-11-23T23:05:00Z'))).toBe('2026-11-23T18:05')
  for (const maxUses of ['0', '-1', '1.5', 'x', '1000001'])
    expect(errorsOf({ maxUses }).maxUses).toBe(PROMOTION_MESSAGES.uses('Usos en total'))
  expect(
    checkPromotionForm(form({ maxUses: '1.000', maxUsesPerCustomer: '1', minSubtotal: '50.000' })),
  ).toMatchObject({
    input: { maxUses: 1000, maxUsesPerCustomer: 1, minSubtotal: 5_000_000 },
  })
  expect(errorsOf({ minSubtotal: 'cincuenta' }).minSubtotal).toMatch(
    /^Compra mínima \(pesos\): escribe pesos enteros/,
  )
})

test('the posted form is read whatever it holds; a saved promotion reads back the same', () => {
  const posted = new FormData()
  posted.set('name', 'Aretes')
  posted.append('categoryIds', 'C1')
  posted.append('categoryIds', new File(['x'], 'x.txt'))
  posted.set('combinable', 'on')
  posted.set('percent', 'x'.repeat(10_000))
  const values = promotionFormValues(posted)
  expect(values).toMatchObject({
    name: 'Aretes',
    code: '',
    categoryIds: ['C1'],
    combinable: true,
    active: false,
  })
  expect(values.percent.length).toBe(4000)

  const checked = checkPromotionForm(
    form({
      kind: 'automatica',
      benefit: 'fixed',
      amount: '15.000',
      target: 'products',
      categoryIds: ['C1'],
      productSkus: 'COL-1',
      startsAt: '2026-11-27T08:30',
      minSubtotal: '100.000',
    }),
  )
  if (!checked.ok) throw new Error('valid form refused')
  const again = promotionAsFormValues(checked.input)
  expect(again).toMatchObject({
    kind: 'automatica',
    amount: '15.000',
    minSubtotal: '100.000',
    startsAt: '2026-11-27T08:30',
  })
  expect(checkPromotionForm(again)).toEqual(checked)
})

test('what a promotion gives, in words', () => {
  const base = { percent: 0, amount: 0, buyQuantity: 0, payQuantity: 0 }
  expect(describePromotion({ ...base, benefit: 'percent', target: 'order', percent: 10 }, [])).toBe(
    '10 % en todo el pedido',
  )
  expect(
    describePromotion({ ...base, benefit: 'fixed', target: 'products', amount: 1_500_000 }, ['Collares']),
  ).toBe('$\u00a015.000,00 en Collares')
  expect(describePromotion({ ...base, benefit: 'percent', target: 'shipping', percent: 100 }, [])).toBe(
    'Envío gratis',
  )
  expect(describePromotion({ ...base, benefit: 'percent', target: 'shipping', percent: 50 }, [])).toBe(
    '50 % en el envío',
  )
  expect(
    describePromotion(
      { ...base, benefit: 'buy_x_pay_y', target: 'products', buyQuantity: 3, payQuantity: 2 },
      ['Aretes', 'Anillos'],
    ),
  ).toBe('Lleve 3 pague 2 en Aretes y Anillos')
  expect(
    describePromotion({ ...base, benefit: 'set_discount', target: 'products', percent: 30 }, [
      'Collares',
      'A',
      'B',
    ]),
  ).toBe('Descuento programado 30 % en Collares, A y B')
})
