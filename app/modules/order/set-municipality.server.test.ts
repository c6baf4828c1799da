import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import { Refusal } from '#app/utils/refusal.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createOrder } from '#tests/factories.ts'
import { MUNICIPALITY_MESSAGES } from './delivery-place.ts'
import { getDeskOrder } from './desk.server.ts'
import { ORDER_DESK_MESSAGES } from './messages.ts'
import { getOrder, listOrderEvents } from './order.server.ts'
import { setOrderMunicipality } from './set-municipality.server.ts'

/** The owner picks an order's DANE municipality at the desk: one transaction, on the timeline. */

const t = setupTestDatabase()
const ADMIN = 'duena@vitrina.test'

async function refusalOf(run: () => Promise<unknown>) {
  try {
    await run()
  } catch (thrown) {
    return thrown
  }
  throw new Error('no fue rechazado')
}

/** What setting the municipality could write, to prove a refused one wrote nothing. */
async function snapshot(orderId: string) {
  return { order: await getOrder(t.db, orderId), events: await listOrderEvents(t.db, orderId) }
}

test("sets the municipality, its department's code and the shop's name for it; the typed city stays", async () => {
  const order = await createOrder(t.db, {
    customerCity: 'medellin',
    customerDepartment: 'Antioquia',
    customerDepartmentCode: '05',
  })
  await setOrderMunicipality(t.db, { orderId: order.id, municipalityCode: '05001', by: ADMIN })

  expect(await getOrder(t.db, order.id)).toMatchObject({
    customerMunicipalityCode: '05001',
    customerDepartmentCode: '05',
    customerDepartment: 'Antioquia',
    customerCity: 'medellin',
  })
  const events = await listOrderEvents(t.db, order.id)
  expect(events.at(-1)).toMatchObject({
    type: 'municipality-set',
    message: 'Municipio asignado: Medellín, Antioquia (05001).',
    createdBy: ADMIN,
    data: { municipalityCode: '05001', departmentCode: '05' },
  })
  // The desk now reads it: no suggestion, nothing to pick from, the typed city beside it.
  const desk = await getDeskOrder(t.db, order.id, 48)
  expect(desk?.place).toMatchObject({
    municipalityCode: '05001',
    municipalityName: 'Medellín',
    typedCity: 'medellin',
    suggestedMunicipalityCode: null,
  })
  expect(desk?.municipalityChoices).toEqual([])
})

test("an order without a city gets the municipality's name; another department's code fixes the department", async () => {
  // A department the shopper named that the municipality is not in (or a name the shop never wrote).
  const order = await createOrder(t.db, {
    customerCity: '  ',
    customerDepartment: 'Antiokia',
    customerDepartmentCode: null,
  })
  await setOrderMunicipality(t.db, { orderId: order.id, municipalityCode: ' 68001 ', by: ADMIN })
  expect(await getOrder(t.db, order.id)).toMatchObject({
    customerMunicipalityCode: '68001',
    customerDepartmentCode: '68',
    customerDepartment: 'Santander',
    customerCity: 'Bucaramanga',
  })
  expect((await listOrderEvents(t.db, order.id)).at(-1)?.message).toBe(
    'Municipio asignado: Bucaramanga, Santander (68001).',
  )
})

test('allowed on any status, and again on an order that has one (the owner corrects it)', async () => {
  for (const status of ['cancelado', 'Completado', 'pagado'] as const) {
    const order = await createOrder(t.db, {
      status,
      customerCity: 'Cali',
      customerDepartment: 'Valle del Cauca',
    })
    await setOrderMunicipality(t.db, { orderId: order.id, municipalityCode: '76001', by: ADMIN })
    expect((await getOrder(t.db, order.id))?.customerMunicipalityCode).toBe('76001')
  }
  const order = await createOrder(t.db, { customerMunicipalityCode: '05001', customerDepartmentCode: '05' })
  await setOrderMunicipality(t.db, { orderId: order.id, municipalityCode: '05088', by: ADMIN })
  expect((await getOrder(t.db, order.id))?.customerMunicipalityCode).toBe('05088')
})

test('a code that is no DIVIPOLA municipality is refused in Spanish and writes nothing', async () => {
  const order = await createOrder(t.db, { customerCity: 'Medellín' })
  const before = await snapshot(order.id)
  for (const code of ['', '5001', '05', '99999', '05001x', 'Medellín']) {
    const refusal = await refusalOf(() =>
      setOrderMunicipality(t.db, { orderId: order.id, municipalityCode: code, by: ADMIN }),
    )
    expect(refusal).toBeInstanceOf(Refusal)
    expect(refusal).toMatchObject({ message: MUNICIPALITY_MESSAGES.choose, status: 400 })
  }
  expect(await snapshot(order.id)).toEqual(before)
})

test('an unknown order is "Pedido no encontrado." with 404', async () => {
  expect(
    await refusalOf(() =>
      setOrderMunicipality(t.db, { orderId: randomUUID(), municipalityCode: '05001', by: ADMIN }),
    ),
  ).toMatchObject({ message: ORDER_DESK_MESSAGES.notFound, status: 404 })
})
