import { expect, test } from 'vitest'
import {
  CategoryNameSchema,
  CATEGORY_MESSAGES,
  DEFAULT_INVENTORY_FILTERS,
  filtersFromParams,
  paramsFromFilters,
  ProductFieldsSchema,
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
  })
  expect(ProductFieldsSchema.safeParse({ ...parsed, purchaseLink: 'javascript:alert(1)' }).success).toBe(
    false,
  )
})
