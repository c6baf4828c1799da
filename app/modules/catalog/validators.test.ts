import { expect, test } from 'vitest'
import {
  CategoryNameSchema,
  CATEGORY_MESSAGES,
  DEFAULT_INVENTORY_FILTERS,
  filtersFromParams,
  paramsFromFilters,
  MAX_PRICE_PESOS,
  priceTooLargeMessage,
  ProductFieldsSchema,
  seoColumns,
  SEO_MESSAGES,
  SeoFieldsSchema,
} from './validators.ts'

test('inventory filters: defaults show everything; the query string round-trips', () => {
  expect(filtersFromParams(new URLSearchParams())).toEqual(DEFAULT_INVENTORY_FILTERS)
  const filters = { q: 'col-cat', wholesale: false, retail: true, noStock: false, inactive: true }
  expect(paramsFromFilters(filters).toString()).toBe('q=col-cat&mayoristas=0&detal=1&sinStock=0&inactivos=1')
  expect(filtersFromParams(paramsFromFilters(filters))).toEqual(filters)
  // Junk never breaks the page: an over-long search falls back to none.
  expect(filtersFromParams(new URLSearchParams({ q: 'x'.repeat(500) })).q).toBe('')
})

test('category names are trimmed and required', () => {
  expect(CategoryNameSchema.parse('  Collares ')).toBe('Collares')
  expect(CategoryNameSchema.safeParse('   ').error?.issues[0]?.message).toBe(CATEGORY_MESSAGES.nameRequired)
})

test('product fields: blanks become defaults, checkboxes are "on", categories deduplicated', () => {
  const parsed = ProductFieldsSchema.parse({
    name: ' Collar ',
    description: ' Dorado ',
    categoryIds: ['Categoria_1', 'Categoria_1'],
    cost: '',
    level1: '1000.456',
    level5: '',
    discountPercent: '',
    purchaseLink: '',
    supplierInfo: '  ',
    showWholesale: 'on',
    showRetail: undefined,
    personalUse: 'on',
  })
  expect(parsed).toEqual({
    name: 'Collar',
    description: 'Dorado',
    categoryIds: ['Categoria_1'],
    cost: 0,
    level1: 1000.456,
    level5: undefined,
    discountPercent: 0,
    purchaseLink: undefined,
    supplierInfo: undefined,
    showWholesale: true,
    showRetail: false,
    personalUse: true,
  })
  expect(ProductFieldsSchema.safeParse({ ...parsed, purchaseLink: 'javascript:alert(1)' }).success).toBe(
    false,
  )
})

test('prices and cost stop below what an integer centavos column holds, with a field message', () => {
  const base = { name: 'Collar', description: 'Dorado', categoryIds: ['Categoria_1'] }
  // The money columns hold at most 2,147,483,647 centavos ($ 21.474.836,47).
  expect(MAX_PRICE_PESOS * 100).toBeLessThan(2_147_483_647)
  expect(ProductFieldsSchema.parse({ ...base, cost: '20000000', level1: '20000000' })).toMatchObject({
    cost: 20_000_000,
    level1: 20_000_000,
  })
  const refused = (field: string, value: string) =>
    ProductFieldsSchema.safeParse({ ...base, [field]: value }).error?.issues[0]?.message
  expect(refused('level1', '21474837')).toBe(priceTooLargeMessage('El precio nivel 1'))
  expect(refused('level1', '20000000.01')).toBe('El precio nivel 1 no puede ser mayor que $ 20.000.000.')
  expect(refused('level5', '999999999')).toBe('El precio nivel 5 no puede ser mayor que $ 20.000.000.')
  expect(refused('cost', '1e9')).toBe('El costo no puede ser mayor que $ 20.000.000.')
})

test('SEO fields: empty is the default, the slug normalised, a post without them changes nothing', () => {
  const parse = (fields: Record<string, unknown>) => SeoFieldsSchema.safeParse(fields)
  expect(parse({}).data).toEqual({})
  expect(parse({ seoTitle: '  ', seoDescription: '', slug: '' }).data).toEqual({
    seoTitle: null,
    seoDescription: null,
    slug: null,
  })
  expect(parse({ seoTitle: 'Collar\n\tLuna  dorado', slug: ' Collar Corazón Ñandú ' }).data).toEqual({
    seoTitle: 'Collar Luna dorado',
    slug: 'collar-corazon-nandu',
  })
  expect(parse({ slug: '💎 ✨' }).error?.issues[0]?.message).toBe(SEO_MESSAGES.slugInvalid)
  expect(parse({ slug: 'a'.repeat(121) }).error?.issues[0]?.message).toBe(SEO_MESSAGES.slugTooLong)
  expect(parse({ seoTitle: 't'.repeat(121) }).error?.issues[0]?.message).toBe(SEO_MESSAGES.titleTooLong)
  expect(parse({ seoDescription: 'd'.repeat(321) }).error?.issues[0]?.message).toBe(
    SEO_MESSAGES.descriptionTooLong,
  )
  // An empty slug is made from the name when saved; absent fields write nothing.
  expect(seoColumns({ slug: null, seoTitle: null }, 'Aretes Sol & Luna')).toEqual({
    slug: 'aretes-sol-luna',
    seoTitle: null,
  })
  expect(seoColumns({}, 'Aretes')).toEqual({})
})
