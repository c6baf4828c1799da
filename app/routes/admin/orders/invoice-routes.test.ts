import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import type { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { INVOICE_DESK_MESSAGES } from '#app/modules/invoicing/messages.ts'
import { issueOrderInvoice } from '#app/modules/invoicing/issue.server.ts'
import { cancelOrderAtDesk } from '#app/modules/order/cancel.server.ts'
import { listOrderEvents } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import type { Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { adminCaller } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import { startFactusStandIn } from '#tests/stand-ins/factus.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import * as detail from './detail.tsx'
import * as invoiceFile from './invoice-file.ts'

/** The desk's "Factura electrónica": the section, "Emitir factura", and the invoice's files. */

const BASE = 'http://127.0.0.1:5558'
const t = setupTestDatabase()
const standIn = standInForFile(startFactusStandIn)
let services: Services
let admin: Awaited<ReturnType<typeof signedInAs>>

beforeAll(async () => {
  const config = testAuthConfig(BASE)
  const { url, credentials, numberingRangeId } = standIn()
  const env = parseEnv({
    FACTUS_API_URL: url,
    FACTUS_CLIENT_ID: credentials.clientId,
    FACTUS_CLIENT_SECRET: credentials.clientSecret,
    FACTUS_USERNAME: credentials.username,
    FACTUS_PASSWORD: credentials.password,
    FACTUS_NUMBERING_RANGE_ID: String(numberingRangeId),
  })
  services = testServices({ database: t.database, auth: config, env })
  admin = await signedInAs(t.db, config, ADMIN_EMAIL)
})

const call = adminCaller(BASE, () => ({ services, admin }))
const sent = () => (services.jobs as ReturnType<typeof recordingJobQueue>).sent

async function order() {
  const product = await stockedProduct(t.db, 5)
  const placed = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, paymentMethod: 'acordar' })
  await t.db.update(orders).set({ customerMunicipalityCode: '11001' }).where(eq(orders.id, placed.id))
  return placed
}

test('"Emitir factura" queues the manual invoice; once issued the section shows it and the button is gone', async () => {
  expect(services.invoicing?.name).toBe('factus')
  const placed = await order()
  const path = `/admin/pedidos/detalle/${placed.id}`
  const params = { id: placed.id }

  expect((await call(detail.loader, path, params)).invoicing).toEqual({
    invoice: null,
    creditNote: null,
    canIssue: true,
  })
  sent().length = 0
  expect(await call(detail.action, path, params, { intent: 'factura-emitir' })).toMatchObject({
    ok: true,
    message: 'Factura en proceso: aparecerá aquí en unos segundos.',
  })
  expect(sent()).toEqual([{ name: 'invoice-issue', data: { orderId: placed.id, trigger: 'manual' } }])
  expect((await listOrderEvents(t.db, placed.id)).at(-1)).toMatchObject({
    type: 'invoice-requested',
    createdBy: ADMIN_EMAIL,
  })

  // The worker runs it.
  expect(await issueOrderInvoice({ db: t.db, invoicing: services.invoicing }, sent()[0]!.data as never)).toBe(
    'issued',
  )
  const bill = standIn().bills.at(-1)!
  const page = await call(detail.loader, path, params)
  expect(page.invoicing).toMatchObject({
    invoice: { status: 'issued', number: bill.number, cufe: bill.cufe, pdfUrl: null, xmlUrl: null },
    creditNote: null,
    canIssue: false,
  })
  expect(page.invoicing.invoice).not.toHaveProperty('lines')

  sent().length = 0
  expect(await call(detail.action, path, params, { intent: 'factura-emitir' })).toMatchObject({
    ok: false,
    status: 409,
    message: INVOICE_DESK_MESSAGES.alreadyIssued,
  })
  expect(sent()).toEqual([])

  // Factus gives no links: our route fetches the files through it.
  const pdf = (await call(invoiceFile.loader, `/admin/pedidos/factura/${placed.id}/pdf`, {
    id: placed.id,
    kind: 'pdf',
  })) as Response
  expect(pdf.status).toBe(200)
  expect(pdf.headers.get('Content-Type')).toBe('application/pdf')
  expect(await pdf.text()).toBe(`pdf de ${bill.number}`)
  const xml = (await call(invoiceFile.loader, `/admin/pedidos/factura/${placed.id}/xml`, {
    id: placed.id,
    kind: 'xml',
  })) as Response
  expect(xml.headers.get('Content-Disposition')).toMatch(/^attachment; filename=".+\.xml"$/)
  expect(await xml.text()).toBe(`xml de ${bill.number}`)
})

test('a cancelled order is not invoiced from the desk; files of an order without invoice are a 404', async () => {
  const placed = await order()
  await cancelOrderAtDesk(t.db, services.jobs, placed.id, 'Prueba', ADMIN_EMAIL)
  const path = `/admin/pedidos/detalle/${placed.id}`
  expect((await call(detail.loader, path, { id: placed.id })).invoicing.canIssue).toBe(false)
  expect(await call(detail.action, path, { id: placed.id }, { intent: 'factura-emitir' })).toMatchObject({
    ok: false,
    message: INVOICE_DESK_MESSAGES.cancelled,
  })
  for (const params of [
    { id: placed.id, kind: 'pdf' },
    { id: placed.id, kind: 'zip' },
    { id: 'nada', kind: 'pdf' },
  ]) {
    const answer = (await call(invoiceFile.loader, `/admin/pedidos/factura/x/y`, params)) as Response
    expect(answer.status).toBe(404)
    expect(await answer.text()).toBe(INVOICE_DESK_MESSAGES.noFile)
  }
})
