import { expect, test } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { createOrder } from '#tests/factories.ts'
import { documentText } from './delivery-place.ts'
import { deliveryPlaceOf, getDeskOrder, getPackingSlips, municipalityChoicesFor } from './desk.server.ts'

/** Where an order goes, as the desk and the packing slips read it. */

const t = setupTestDatabase()

const place = (columns: {
  city?: string
  department?: string
  departmentCode?: string | null
  municipalityCode?: string | null
}) =>
  deliveryPlaceOf({
    customerCity: columns.city ?? '',
    customerDepartment: columns.department ?? '',
    customerDepartmentCode: columns.departmentCode ?? null,
    customerMunicipalityCode: columns.municipalityCode ?? null,
  })

test("an order with its municipality: DANE's name, the shop's department, the typed city when it differs", () => {
  expect(
    place({ city: 'Medellín', department: 'Antioquia', departmentCode: '05', municipalityCode: '05001' }),
  ).toEqual({
    departmentCode: '05',
    departmentName: 'Antioquia',
    municipalityCode: '05001',
    municipalityName: 'Medellín',
    typedCity: null,
    suggestedMunicipalityCode: null,
  })
  expect(
    place({ city: 'Bogotá', department: 'Bogotá D.C.', departmentCode: '11', municipalityCode: '11001' }),
  ).toMatchObject({ departmentName: 'Bogotá D.C.', municipalityName: 'Bogotá, D.C.', typedCity: 'Bogotá' })
})

test('without a municipality: the one the typed city names in its department is suggested', () => {
  expect(place({ city: 'medellin', department: 'Antioquia', departmentCode: '05' })).toEqual({
    departmentCode: '05',
    departmentName: 'Antioquia',
    municipalityCode: null,
    municipalityName: null,
    typedCity: 'medellin',
    suggestedMunicipalityCode: '05001',
  })
  // The department by its name when the code was never kept.
  expect(place({ city: 'Bucaramanga', department: 'Santander' })).toMatchObject({
    departmentCode: '68',
    suggestedMunicipalityCode: '68001',
  })
  // A city no municipality (or more than one) of the department is named: nothing is guessed.
  expect(place({ city: 'Vereda La Esperanza', department: 'Antioquia' }).suggestedMunicipalityCode).toBeNull()
  expect(place({ city: '', department: 'Antioquia' })).toMatchObject({
    typedCity: '',
    suggestedMunicipalityCode: null,
  })
  // A code DIVIPOLA does not have is no municipality.
  expect(place({ city: 'Medellín', department: 'Antioquia', municipalityCode: '05999' })).toMatchObject({
    municipalityCode: null,
    municipalityName: null,
    suggestedMunicipalityCode: '05001',
  })
})

test("the choices: the department's municipalities, or every department's by group when it is unknown", () => {
  const antioquia = municipalityChoicesFor(place({ city: 'x', department: 'Antioquia' }))
  expect(antioquia).toHaveLength(1)
  expect(antioquia[0]).toMatchObject({ departmentCode: '05', departmentName: 'Antioquia' })
  expect(antioquia[0]!.municipalities).toHaveLength(125)
  expect(antioquia[0]!.municipalities.slice(0, 2)).toEqual([
    { code: '05002', name: 'Abejorral' },
    { code: '05004', name: 'Abriaquí' },
  ])

  const unknown = place({ city: 'Medellín', department: 'Antiokia' })
  expect(unknown).toMatchObject({
    departmentCode: null,
    departmentName: 'Antiokia',
    suggestedMunicipalityCode: null,
  })
  const everywhere = municipalityChoicesFor(unknown)
  expect(everywhere).toHaveLength(33)
  expect(everywhere.flatMap((group) => group.municipalities)).toHaveLength(1122)

  expect(municipalityChoicesFor(place({ department: 'Antioquia', municipalityCode: '05001' }))).toEqual([])
})

test('the document as the desk writes it', () => {
  expect(documentText('CC', '1020304050')).toBe('Cédula de ciudadanía 1020304050')
  expect(documentText('NIT', '900123456-7')).toBe('NIT 900123456-7')
  expect(documentText(null, '1020304050')).toBe('1020304050')
  expect(documentText(null, '')).toBe('')
})

test('the detail and the packing slips read the document type, the codes and the place', async () => {
  const missing = await createOrder(t.db, {
    customerIdentificationType: 'CC',
    customerIdentificationNumber: '1020304050',
    customerCity: 'Bucaramanga',
    customerDepartment: 'Santander',
    customerDepartmentCode: '68',
  })
  const known = await createOrder(t.db, {
    customerCity: 'Medellín',
    customerDepartment: 'Antioquia',
    customerDepartmentCode: '05',
    customerMunicipalityCode: '05001',
  })

  const detail = await getDeskOrder(t.db, missing.id, 48)
  expect(detail).toMatchObject({
    customerIdentificationType: 'CC',
    customerDepartmentCode: '68',
    customerMunicipalityCode: null,
    place: { departmentName: 'Santander', municipalityCode: null, suggestedMunicipalityCode: '68001' },
  })
  expect(detail?.municipalityChoices.map((group) => group.departmentCode)).toEqual(['68'])
  expect((await getDeskOrder(t.db, known.id, 48))?.municipalityChoices).toEqual([])

  const slips = await getPackingSlips(t.db, [missing.id, known.id])
  const byId = new Map(slips.map((slip) => [slip.id, slip]))
  expect(byId.get(missing.id)).toMatchObject({
    customerIdentificationType: 'CC',
    customerIdentificationNumber: '1020304050',
    customerDepartmentCode: '68',
    customerMunicipalityCode: null,
    place: { municipalityName: null, suggestedMunicipalityCode: '68001' },
  })
  expect(byId.get(known.id)).toMatchObject({
    customerIdentificationType: null,
    customerMunicipalityCode: '05001',
    place: { departmentName: 'Antioquia', municipalityName: 'Medellín', municipalityCode: '05001' },
  })
})
