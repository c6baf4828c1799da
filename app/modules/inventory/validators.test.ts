import { describe, expect, test } from 'vitest'
import { kardexFiltersFrom, parseEntryForm, parseExitForm, STOCK_FORM_MESSAGES } from './validators.ts'

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

const entry = {
  sku: 'COL-GEN-ABC123',
  quantity: '3',
  unitPrice: '12500.5',
  location: ' p2-c1-a1-e1-x1-y1-z3 ',
  receipt: ' F-001 ',
  note: 'Proveedor nuevo',
}

describe('entry form', () => {
  test('reads pesos as centavos and the location as stored', () => {
    const parsed = parseEntryForm(form(entry))
    expect(parsed).toMatchObject({
      success: true,
      data: {
        sku: 'COL-GEN-ABC123',
        quantity: 3,
        unitCost: 1250050,
        location: 'P2-C1-A1-E1-X1-Y1-Z3',
        receipt: 'F-001',
        note: 'Proveedor nuevo',
      },
    })
  })

  test('receipt and note may be empty; a unit cost of 0 is a cost', () => {
    const parsed = parseEntryForm(form({ ...entry, receipt: '', note: '', unitPrice: '0' }))
    expect(parsed).toMatchObject({ success: true, data: { unitCost: 0, receipt: '', note: '' } })
  })

  test.each(['sku', 'quantity', 'unitPrice', 'location'])(
    'a missing %s reads the spec message, beside the field too, and keeps what was typed',
    (field) => {
      const parsed = parseEntryForm(form({ ...entry, [field]: '  ' }))
      expect(parsed.success).toBe(false)
      if (parsed.success) return
      expect(parsed.message).toBe('Por favor, completa todos los campos antes de enviar.')
      expect(parsed.fieldErrors[field as 'sku']).toBe(STOCK_FORM_MESSAGES.required)
      expect(parsed.values.note).toBe('Proveedor nuevo')
    },
  )

  test('missing fields win over other mistakes', () => {
    const parsed = parseEntryForm(form({ ...entry, quantity: '0', location: '' }))
    expect(parsed).toMatchObject({
      success: false,
      message: STOCK_FORM_MESSAGES.required,
      fieldErrors: { quantity: STOCK_FORM_MESSAGES.quantity, location: STOCK_FORM_MESSAGES.required },
    })
  })

  test.each([
    ['quantity', '0', 'La cantidad debe ser un número entero mayor o igual a 1.'],
    ['quantity', '-2', STOCK_FORM_MESSAGES.quantity],
    ['quantity', '1.5', STOCK_FORM_MESSAGES.quantity],
    ['quantity', 'tres', STOCK_FORM_MESSAGES.quantity],
    ['quantity', '100001', STOCK_FORM_MESSAGES.quantityMax],
    ['unitPrice', '-1', 'El costo unitario debe ser un valor mayor o igual a 0.'],
    ['unitPrice', 'mil', 'El costo unitario debe ser un número.'],
    ['unitPrice', '20000000.01', 'El costo unitario no puede ser mayor que $ 20.000.000.'],
    ['location', 'bodega', 'La ubicación debe tener el formato P1-C1-A1-E1-X1-Y1-Z1.'],
    ['receipt', 'x'.repeat(201), 'El recibo es demasiado largo.'],
  ])('%s = %j is refused: %s', (field, value, message) => {
    const parsed = parseEntryForm(form({ ...entry, [field]: value }))
    expect(parsed).toMatchObject({ success: false, message, fieldErrors: { [field]: message } })
  })
})

describe('exit form', () => {
  const exit = { ...entry, unitPrice: '' }

  test('without "Editar Precio" the typed price is ignored (the server uses the cost)', () => {
    expect(parseExitForm(form({ ...exit, unitPrice: '999' }))).toMatchObject({
      success: true,
      data: { editPrice: false, unitPrice: undefined, quantity: 3, location: 'P2-C1-A1-E1-X1-Y1-Z3' },
    })
  })

  test('with "Editar Precio" the price is required and read in centavos', () => {
    expect(parseExitForm(form({ ...exit, editPrice: 'on', unitPrice: '1.99' }))).toMatchObject({
      success: true,
      data: { editPrice: true, unitPrice: 199 },
    })
    expect(parseExitForm(form({ ...exit, editPrice: 'on' }))).toMatchObject({
      success: false,
      message: STOCK_FORM_MESSAGES.required,
      fieldErrors: { unitPrice: STOCK_FORM_MESSAGES.required },
      values: { editPrice: true },
    })
    expect(parseExitForm(form({ ...exit, editPrice: 'on', unitPrice: '-5' }))).toMatchObject({
      success: false,
      message: 'El precio unitario debe ser un valor mayor o igual a 0.',
    })
  })

  test('missing product, quantity or location reads the spec message', () => {
    const parsed = parseExitForm(form({ ...exit, sku: '', quantity: '', location: '' }))
    expect(parsed).toMatchObject({
      success: false,
      message: STOCK_FORM_MESSAGES.required,
      fieldErrors: {
        sku: STOCK_FORM_MESSAGES.required,
        quantity: STOCK_FORM_MESSAGES.required,
        location: STOCK_FORM_MESSAGES.required,
      },
    })
  })
})

test('kardex filters: valid days and pages, anything else ignored', () => {
  const read = (query: string) => kardexFiltersFrom(new URLSearchParams(query))
  expect(read('desde=2026-11-01&hasta=2026-11-30&pagina=2')).toEqual({
    from: '2026-11-01',
    to: '2026-11-30',
    page: 2,
  })
  expect(read('desde=ayer&hasta=2026-13-45&pagina=-1')).toEqual({ from: undefined, to: undefined, page: 1 })
  expect(read('')).toEqual({ from: undefined, to: undefined, page: 1 })
})
