import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { cancelOrderAtDesk } from '#app/modules/order/cancel.server.ts'
import { markOrderPaidAtDesk } from '#app/modules/order/mark-paid.server.ts'
import { completeOrder } from '#app/modules/order/complete.server.ts'
import { acceptClaim } from '#app/modules/order/decide-claim.server.ts'
import { markOrderPaid } from '#app/modules/order/mark-paid.server.ts'
import { getOrder, listOrderEvents } from '#app/modules/order/order.server.ts'
import { requestRetracto } from '#app/modules/order/request-claim.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { settings } from '#app/modules/settings/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeDiscountedOrder } from '#tests/discounted-orders.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { startFactusStandIn } from '#tests/stand-ins/factus.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { factusProvider } from './factus.server.ts'
import { readInvoiceSettings } from '#app/modules/settings/settings.server.ts'
import {
  creditNoteReference,
  INVOICE_MESSAGES,
  invoicesOfOrder,
  issueOrderCreditNote,
  issueOrderInvoice,
  type InvoicingDeps,
} from './issue.server.ts'
import { InvoicingUnavailable } from './provider.ts'
import { invoices } from './schema.ts'

/**
 * The invoicing jobs on the test database against the local Factus: which change issues the invoice
 * under which setting, never twice, every failure where the owner reads it, and the credit note of a
 * return or a cancellation.
 */

const t = setupTestDatabase()
const standIn = standInForFile(startFactusStandIn)
let jobs = recordingJobQueue()
beforeEach(() => {
  jobs = recordingJobQueue()
})
afterEach(async () => {
  await t.db.delete(settings).where(eq(settings.key, 'invoiceTrigger'))
  await t.db.delete(settings).where(eq(settings.key, 'defaultVat'))
})

const BY = 'duena@vitrina.test'

/** A fresh Factus client on the stand-in (its token and municipality cache start empty). */
function deps(configured = true): InvoicingDeps {
  const { url, credentials, numberingRangeId, creditNoteNumberingRangeId } = standIn()
  return {
    db: t.db,
    invoicing: configured
      ? factusProvider({ baseUrl: url, ...credentials, numberingRangeId, creditNoteNumberingRangeId })
      : null,
  }
}

/** Runs the invoicing jobs the order functions queued, in order, as the worker would. */
async function runQueued(using = deps()) {
  const outcomes: string[] = []
  for (const job of jobs.sent.splice(0)) {
    if (job.name === 'invoice-issue') {
      outcomes.push(await issueOrderInvoice(using, job.data as Parameters<typeof issueOrderInvoice>[1]))
    }
    if (job.name === 'invoice-credit-note') {
      outcomes.push(await issueOrderCreditNote(using, job.data as { orderId: string }))
    }
  }
  return outcomes
}

const invoiceJobs = () => jobs.sent.filter((job) => job.name.startsWith('invoice-'))
const sentTo = (path: string) => standIn().requests.filter((request) => request.path === path)
type SentItem = { code_reference: string; price: number; tax_rate: string; is_excluded: number }
const billItems = () => (standIn().bills.at(-1)!.body.items as SentItem[]).map((item) => ({ ...item }))

async function setSetting(key: 'invoiceTrigger' | 'defaultVat', value: string) {
  await t.db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } })
}

/**
 * An order as checkout places it (2 units at the catalogue's price, Bogotá), with the buyer's
 * document and e-mail. `vat`: the product's own IVA (null follows the shop's default).
 */
async function placed(
  paymentMethod: 'acordar' | 'mercadopago',
  buyer: Partial<typeof orders.$inferInsert> = {},
  vat: '5' | '19' | 'exempt' | 'excluded' | null = null,
) {
  const product = await stockedProduct(t.db, 5)
  await t.db.update(products).set({ vat }).where(eq(products.sku, product.sku))
  const order = await placeTestOrder(t.db, {
    sku: product.sku,
    quantity: 2,
    paymentMethod,
    phone: `300${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
  })
  await t.db
    .update(orders)
    .set({
      customerIdentificationType: 'CC',
      customerIdentificationNumber: '1020304050',
      customerEmail: 'luis@example.co',
      customerMunicipalityCode: '11001',
      ...buyer,
    })
    .where(eq(orders.id, order.id))
  return { ...order, sku: product.sku }
}

async function paidOnline(buyer: Partial<typeof orders.$inferInsert> = {}, vat: '5' | null = null) {
  const order = await placed('mercadopago', buyer, vat)
  await t.db.transaction((tx) =>
    markOrderPaid(tx, order.id, { id: `pago-${order.number}`, status: 'approved' }, jobs),
  )
  return order
}

const messages = async (orderId: string) =>
  (await listOrderEvents(t.db, orderId)).map((event) => event.message)

describe('when the invoice is issued', () => {
  test('an online payment issues it, with the buyer, the price charged and each product’s IVA, and e-mails it', async () => {
    await setSetting('defaultVat', 'exempt')
    const order = await paidOnline({}, '5')
    expect(invoiceJobs()).toEqual([{ name: 'invoice-issue', data: { orderId: order.id, trigger: 'paid' } }])
    expect(await runQueued()).toEqual(['issued'])

    const bill = standIn().bills.at(-1)!
    expect(bill.referenceCode).toBe(order.id)
    expect(bill.body).toMatchObject({
      payment_method_code: 'ZZZ',
      customer: {
        identification: '1020304050',
        names: 'Luis Gómez',
        email: 'luis@example.co',
        municipality_id: 149,
        identification_document_id: 3,
      },
    })
    const [line] = billItems()
    expect(line).toMatchObject({ code_reference: order.sku, tax_rate: '5.00', is_excluded: 0 })
    // The price charged, in pesos.
    const charged = (await getOrder(t.db, order.id))!.items[0]!.unitPrice
    expect(charged).toBeGreaterThan(0)
    expect(line!.price * 100).toBe(charged)

    const { invoice, creditNote } = await invoicesOfOrder(t.db, order.id)
    expect(creditNote).toBeNull()
    expect(invoice).toMatchObject({
      kind: 'invoice',
      status: 'issued',
      referenceCode: order.id,
      provider: 'factus',
      number: bill.number,
      cufe: bill.cufe,
      providerMessage: null,
    })
    expect(invoice!.qrUrl).toContain(bill.cufe)
    expect(invoice!.issuedAt).toBeInstanceOf(Date)
    expect(standIn().emails).toEqual([{ number: bill.number, email: 'luis@example.co' }])
    expect(await messages(order.id)).toEqual(
      expect.arrayContaining([
        INVOICE_MESSAGES.issued(bill.number, bill.cufe),
        INVOICE_MESSAGES.emailed(bill.number, 'luis@example.co'),
      ]),
    )
  })

  test('a buyer without a document is DIAN’s consumidor final; the shop’s default IVA applies', async () => {
    const order = await paidOnline({
      customerIdentificationType: null,
      customerIdentificationNumber: '',
      customerEmail: '',
    })
    expect(await runQueued()).toEqual(['issued'])
    expect(standIn().bills.at(-1)!.body.customer).toMatchObject({
      identification: '222222222222',
      names: 'Consumidor final',
    })
    expect(billItems()[0]).toMatchObject({ tax_rate: '19.00', is_excluded: 0 })
    // No e-mail given: nothing sent.
    expect(standIn().emails).toEqual([])
    expect((await invoicesOfOrder(t.db, order.id)).invoice?.status).toBe('issued')
  })

  test('cash on delivery is invoiced when delivered; an online order is not invoiced again then', async () => {
    const cash = await placed('acordar')
    await completeOrder(t.db, jobs, cash.id, BY)
    expect(invoiceJobs()).toEqual([
      { name: 'invoice-issue', data: { orderId: cash.id, trigger: 'delivered' } },
    ])
    expect(await runQueued()).toEqual(['issued'])
    expect(standIn().bills.at(-1)!.body.payment_method_code).toBe('10')

    const online = await paidOnline()
    await completeOrder(t.db, jobs, online.id, BY)
    expect(await runQueued()).toEqual(['issued', 'already-issued'])
    expect(standIn().bills).toHaveLength(2)
  })

  test('an online order delivered but not paid online is not invoiced by the delivery (it was the payment’s turn)', async () => {
    const online = await placed('mercadopago')
    // Paid some other way, marked by hand at the desk: no online payment ever issued it.
    await markOrderPaidAtDesk(t.db, online.id, BY)
    await completeOrder(t.db, jobs, online.id, BY)
    expect(await runQueued()).toEqual(['not-this-trigger'])
    expect(standIn().requests).toEqual([])
  })

  test('"manual": neither the payment nor the delivery issues it, only the desk', async () => {
    await setSetting('invoiceTrigger', 'manual')
    expect((await readInvoiceSettings(t.db)).trigger).toBe('manual')
    const online = await paidOnline()
    const cash = await placed('acordar')
    await completeOrder(t.db, jobs, cash.id, BY)
    expect(await runQueued()).toEqual(['not-this-trigger', 'not-this-trigger'])
    expect(standIn().requests).toEqual([])
    expect(await invoicesOfOrder(t.db, online.id)).toEqual({ invoice: null, creditNote: null })

    expect(await issueOrderInvoice(deps(), { orderId: cash.id, trigger: 'manual' })).toBe('issued')
    expect(standIn().bills.map((bill) => bill.referenceCode)).toEqual([cash.id])
  })

  test('a setting nobody understands is read as the default', async () => {
    await setSetting('invoiceTrigger', 'siempre')
    await setSetting('defaultVat', '16')
    expect(await readInvoiceSettings(t.db)).toEqual({ trigger: 'auto', defaultVat: '19' })
  })
})

describe('what goes wrong', () => {
  test('without Factus configured: a skipped row and a timeline note, nothing thrown', async () => {
    const order = await paidOnline()
    expect(await runQueued(deps(false))).toEqual(['skipped'])
    expect((await invoicesOfOrder(t.db, order.id)).invoice).toMatchObject({
      status: 'skipped',
      number: null,
      providerMessage: INVOICE_MESSAGES.skipped,
    })
    expect(await messages(order.id)).toContain(
      'Factura electrónica omitida: la facturación no está configurada.',
    )
    // Configured later, the desk issues it over the skipped row.
    expect(await issueOrderInvoice(deps(), { orderId: order.id, trigger: 'manual' })).toBe('issued')
    expect((await invoicesOfOrder(t.db, order.id)).invoice).toMatchObject({
      status: 'issued',
      providerMessage: null,
    })
  })

  test('Factus refuses: a failed row with its message for the owner, no retry', async () => {
    const order = await paidOnline()
    standIn().failNext(
      1,
      422,
      {
        status: 'Validation error',
        message: 'Error de validación',
        data: {
          errors: { 'customer.email': ['El campo customer.email debe ser una dirección de correo válida.'] },
        },
      },
      '/v1/bills/validate',
    )
    expect(await runQueued()).toEqual(['failed'])
    const { invoice } = await invoicesOfOrder(t.db, order.id)
    expect(invoice).toMatchObject({ status: 'failed', number: null })
    expect(invoice!.providerMessage).toContain('customer.email debe ser una dirección de correo válida')
    const events = await listOrderEvents(t.db, order.id)
    expect(events.at(-1)).toMatchObject({ type: 'invoice-failed' })
    expect(events.at(-1)!.message).toMatch(/^Factus rechazó la factura: .*customer\.email/)
    expect(events.at(-1)!.message).not.toMatch(/rechazó la factura: Factus rechazó/)
  })

  test('Factus fails (HTTP 500): thrown for the queue to retry, and the retry issues it once', async () => {
    const order = await paidOnline()
    const job = { orderId: order.id, trigger: 'paid' as const }
    const using = deps()
    standIn().failNext(1, 500, undefined, '/v1/bills/validate')
    await expect(issueOrderInvoice(using, job)).rejects.toBeInstanceOf(InvoicingUnavailable)
    // While the queue retries, the order says why its invoice is late.
    const waiting = (await invoicesOfOrder(t.db, order.id)).invoice
    expect(waiting).toMatchObject({ status: 'retrying', number: null })
    expect(waiting?.providerMessage).toMatch(
      /^Factus no respondió \(.+\)\. Se reintenta sola; si sigue sin respuesta aparece en «Tareas fallidas»\.$/,
    )
    expect(await issueOrderInvoice(using, job)).toBe('issued')
    expect((await invoicesOfOrder(t.db, order.id)).invoice).toMatchObject({
      status: 'issued',
      providerMessage: null,
    })
    expect(standIn().bills).toHaveLength(1)
  })

  test('never twice: an issued invoice ends the job, and one Factus already has is recorded, not issued again', async () => {
    const order = await paidOnline()
    expect(await issueOrderInvoice(deps(), { orderId: order.id, trigger: 'paid' })).toBe('issued')
    expect(await issueOrderInvoice(deps(), { orderId: order.id, trigger: 'manual' })).toBe('already-issued')
    expect(standIn().bills).toHaveLength(1)

    // Issued, then the process died before recording it: the next run finds it at Factus.
    const lost = await paidOnline()
    await issueOrderInvoice(deps(), { orderId: lost.id, trigger: 'paid' })
    await t.db.delete(invoices).where(eq(invoices.orderId, lost.id))
    const validations = sentTo('/v1/bills/validate').length
    expect(await issueOrderInvoice(deps(), { orderId: lost.id, trigger: 'paid' })).toBe('issued')
    expect(sentTo('/v1/bills/validate')).toHaveLength(validations)
    expect(standIn().bills).toHaveLength(2)
    expect((await invoicesOfOrder(t.db, lost.id)).invoice?.number).toBe(standIn().bills[1]!.number)
  })

  test('an order without its municipality: failed with what to do, nothing sent, no retry', async () => {
    const order = await paidOnline({ customerMunicipalityCode: null })
    expect(await runQueued()).toEqual(['failed'])
    expect(standIn().requests).toEqual([])
    expect((await invoicesOfOrder(t.db, order.id)).invoice).toMatchObject({
      status: 'failed',
      providerMessage: 'Falta el municipio (DANE) del pedido: elígelo en el pedido y emite la factura.',
    })
    expect(await messages(order.id)).toContain(INVOICE_MESSAGES.missingMunicipality)
  })

  test('the e-mail failing is only a note: the invoice stands', async () => {
    const order = await paidOnline()
    standIn().failNext(1, 422, { message: 'Correo no válido' }, `/v1/bills/send-email/SETP990000001`)
    expect(await runQueued()).toEqual(['issued'])
    expect((await invoicesOfOrder(t.db, order.id)).invoice?.status).toBe('issued')
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({ type: 'invoice-email-failed' })
  })
})

describe('credit notes', () => {
  test('an accepted retracto credits the whole invoice as a return (devolución)', async () => {
    const order = await placed('acordar')
    await completeOrder(t.db, jobs, order.id, BY)
    expect(await runQueued()).toEqual(['issued'])
    const bill = standIn().bills.at(-1)!

    const claim = await requestRetracto(
      t.db,
      { jobs, notifyNumbers: [] },
      { orderId: order.id, description: '' },
    )
    await acceptClaim(t.db, jobs, { claimId: claim.id, by: BY, refundNote: 'Nequi' })
    expect(invoiceJobs()).toEqual([{ name: 'invoice-credit-note', data: { orderId: order.id } }])
    expect(await runQueued()).toEqual(['issued'])

    const note = standIn().creditNotes.at(-1)!
    expect(note.referenceCode).toBe(creditNoteReference(order.id))
    expect(note.bill.number).toBe(bill.number)
    expect(note.body.correction_concept_code).toBe(1)
    expect(note.body.items).toEqual(bill.body.items)
    const { creditNote } = await invoicesOfOrder(t.db, order.id)
    expect(creditNote).toMatchObject({
      kind: 'credit_note',
      status: 'issued',
      number: note.number,
      cufe: note.cude,
    })
    expect(await messages(order.id)).toContain(
      INVOICE_MESSAGES.creditNoteIssued(note.number, note.cude, bill.number),
    )

    // Never twice.
    expect(await issueOrderCreditNote(deps(), { orderId: order.id })).toBe('already-issued')
    expect(standIn().creditNotes).toHaveLength(1)
  })

  test('a paid order cancelled at the desk credits its invoice as an annulment (anulación)', async () => {
    const order = await paidOnline()
    expect(await runQueued()).toEqual(['issued'])
    await cancelOrderAtDesk(t.db, jobs, order.id, 'Sin existencias', BY)
    expect(await runQueued()).toEqual(['issued'])
    expect(standIn().creditNotes.at(-1)!.body.correction_concept_code).toBe(2)
  })

  test('no invoice, no credit note; a pending order’s cancellation queues none', async () => {
    await setSetting('invoiceTrigger', 'manual')
    const order = await paidOnline()
    expect(await runQueued()).toEqual(['not-this-trigger'])
    await cancelOrderAtDesk(t.db, jobs, order.id, 'Sin existencias', BY)
    expect(await runQueued()).toEqual(['no-invoice'])
    expect(standIn().requests).toEqual([])
    expect(await invoicesOfOrder(t.db, order.id)).toEqual({ invoice: null, creditNote: null })

    const pending = await placed('acordar')
    await cancelOrderAtDesk(t.db, jobs, pending.id, 'El cliente no contestó', BY)
    expect(invoiceJobs()).toEqual([])
  })

  test('Factus refuses the credit note: failed with its message; fails to answer: retried', async () => {
    const order = await paidOnline()
    await runQueued()
    await cancelOrderAtDesk(t.db, jobs, order.id, 'Sin existencias', BY)
    const job = jobs.sent.find((sent) => sent.name === 'invoice-credit-note')
    standIn().failNext(1, 500, undefined, '/v1/credit-notes/validate')
    await expect(issueOrderCreditNote(deps(), job!.data as { orderId: string })).rejects.toBeInstanceOf(
      InvoicingUnavailable,
    )
    standIn().failNext(
      1,
      422,
      {
        message: 'Error de validación',
        data: { errors: { bill_id: ['La factura ya tiene nota crédito.'] } },
      },
      '/v1/credit-notes/validate',
    )
    expect(await issueOrderCreditNote(deps(), { orderId: order.id })).toBe('failed')
    expect((await invoicesOfOrder(t.db, order.id)).creditNote).toMatchObject({
      status: 'failed',
      providerMessage: expect.stringContaining('La factura ya tiene nota crédito.'),
    })
    expect((await listOrderEvents(t.db, order.id)).at(-1)!.message).toMatch(
      /^Factus rechazó la nota crédito: .*ya tiene nota crédito/,
    )
  })

  test('without Factus configured the credit note is skipped with a note', async () => {
    const order = await paidOnline()
    await runQueued()
    await cancelOrderAtDesk(t.db, jobs, order.id, 'Sin existencias', BY)
    expect(await runQueued(deps(false))).toEqual(['skipped'])
    expect((await invoicesOfOrder(t.db, order.id)).creditNote).toMatchObject({
      status: 'skipped',
      providerMessage: INVOICE_MESSAGES.creditNoteSkipped,
    })
  })
})

describe('an order with promotions', () => {
  test('each line carries its discount, the shipping its net cost, and the invoice totals the order', async () => {
    const order = await placeDiscountedOrder(t.db, { phone: '3005550103' })
    expect(await issueOrderInvoice(deps(), { orderId: order.id, trigger: 'manual' })).toBe('issued')
    const bill = standIn().bills.at(-1)!
    const items = bill.body.items as {
      code_reference: string
      quantity: number
      price: number
      discount_rate: number
    }[]
    expect(
      items.map(({ code_reference, quantity, price, discount_rate }) => ({
        code_reference,
        quantity,
        price,
        discount_rate,
      })),
    ).toEqual(
      expect.arrayContaining([
        { code_reference: order.collar.sku, quantity: 2, price: 45_000, discount_rate: 10 },
        { code_reference: order.aretes.sku, quantity: 1, price: 20_000, discount_rate: 10 },
        // 5.000 off 12.000 is no percentage with 2 decimals: the shipping at what it charged.
        { code_reference: 'ENVIO', quantity: 1, price: 7_000, discount_rate: 0 },
      ]),
    )
    expect(items).toHaveLength(3)
    expect(bill.total).toBe(106_000)
  })
})
