import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { listOrderEvents } from '#app/modules/order/order.server.ts'
import { orderLinkToken } from '#app/modules/order/status-link.server.ts'
import { receiptOf } from '#app/modules/payment/transfer.server.ts'
import { TRANSFER_MESSAGES } from '#app/modules/payment/transfer.ts'
import * as paymentReceipt from '#app/routes/admin/orders/payment-receipt.ts'
import { startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { saveSettings } from '#tests/carrier-quotes.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createOrder } from '#tests/factories.ts'
import { pngUpload } from '#tests/media.ts'
import { routeContext } from '#tests/routes.ts'
import * as checkoutResult from './checkout-result.tsx'
import * as orderStatus from './order-status.tsx'

/**
 * A transfer's receipt sent from the buyer's two pages (the success page, opened by the order's
 * id; their order page, opened by its signed key) as a plain multipart post, and served back to
 * the desk with headers that keep the buyer's bytes inert.
 */

const BASE = 'http://tienda.test'
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n')
const t = setupTestDatabase()
let services: Awaited<ReturnType<typeof startServices>>

beforeAll(async () => {
  services = await startServices(parseEnv({ PUBLIC_URL: BASE }), t.database, { workers: false })
  await saveSettings(t.db, {
    paymentTransfer: 'yes',
    transferBrebKey: '3001234567',
    transferDeadlineHours: 24,
  })
})
afterAll(async () => {
  await services.stop()
})

const transferOrder = (status: 'pendiente de pago' | 'pagado' = 'pendiente de pago') =>
  createOrder(t.db, {
    id: randomUUID(),
    paymentMethod: 'transferencia',
    status,
    subtotal: 4_500_000,
    total: 4_500_000,
  })

function form(fields: Record<string, string>, file?: { name: string; bytes: Buffer; type?: string }) {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  if (file)
    body.set('comprobante', new File([new Uint8Array(file.bytes)], file.name, { type: file.type ?? '' }))
  return body
}

type Outcome = { status: number; location: string | null; message: string | null }

async function outcomeOf(result: unknown): Promise<Outcome> {
  if (result instanceof Response)
    return { status: result.status, location: result.headers.get('Location'), message: null }
  const wrapped = result as { type?: string; data: { message: string }; init: { status: number } | null }
  if (wrapped.type !== 'DataWithResponseInit')
    return { status: 200, location: null, message: (result as { message: string }).message }
  return { status: wrapped.init?.status ?? 200, location: null, message: wrapped.data.message }
}

async function postToSuccessPage(orderId: string, body: FormData) {
  const url = new URL(`${BASE}/finalizar-pedido/success?pedido=${orderId}`)
  const request = new Request(url, { method: 'POST', body })
  return outcomeOf(
    await checkoutResult.action({ request, url, params: {}, context: routeContext(services) } as never),
  )
}

async function postToOrderPage(number: number, body: FormData) {
  const request = new Request(`${BASE}/pedido/${number}`, { method: 'POST', body })
  return outcomeOf(
    await orderStatus.action({
      request,
      params: { numero: String(number) },
      context: routeContext(services),
    } as never),
  )
}

describe('the success page', () => {
  test('shows where to pay, takes the receipt and comes back saying it arrived', async () => {
    const order = await transferOrder()
    const url = new URL(`${BASE}/finalizar-pedido/success?pedido=${order.id}`)
    const load = async () =>
      (
        (await checkoutResult.loader({
          request: new Request(url),
          url,
          params: {},
          context: routeContext(services),
        } as never)) as {
          data: {
            transfer: {
              instructions: { brebKey: string; amount: number } | null
              receiptUploaded: boolean
            } | null
          }
        }
      ).data
    expect((await load()).transfer).toMatchObject({
      instructions: { brebKey: '3001234567', amount: 4_500_000 },
      receiptUploaded: false,
    })

    const png = await pngUpload('captura.png')
    expect(await postToSuccessPage(order.id, form({ intent: 'comprobante', pedido: order.id }, png))).toEqual(
      {
        status: 302,
        location: `/finalizar-pedido/success?pedido=${order.id}`,
        message: null,
      },
    )
    expect((await receiptOf(t.db, order.id))?.contentType).toBe('image/png')
    expect((await load()).transfer?.receiptUploaded).toBe(true)
  })

  test('a bad file, no file, or an order no longer waiting is answered in Spanish, nothing kept', async () => {
    const order = await transferOrder()
    const fields = { intent: 'comprobante', pedido: order.id }
    expect(
      await postToSuccessPage(order.id, form(fields, { name: 'x.png', bytes: Buffer.from('<html></html>') })),
    ).toMatchObject({
      status: 400,
      message: TRANSFER_MESSAGES.notReceipt,
    })
    expect(await postToSuccessPage(order.id, form(fields))).toMatchObject({
      status: 400,
      message: TRANSFER_MESSAGES.noFile,
    })
    const paid = await transferOrder('pagado')
    expect(
      await postToSuccessPage(
        paid.id,
        form({ intent: 'comprobante', pedido: paid.id }, { name: 'r.pdf', bytes: PDF }),
      ),
    ).toMatchObject({ status: 409, message: TRANSFER_MESSAGES.notPending })
    expect(await receiptOf(t.db, order.id)).toBeNull()
    expect(await receiptOf(t.db, paid.id)).toBeNull()
  })
})

describe("the buyer's order page", () => {
  test('takes the receipt with its signed key and comes back to the same page', async () => {
    const order = await transferOrder()
    const key = orderLinkToken(services.orderLinkSecret, order.number)
    const answer = await postToOrderPage(
      order.number,
      form({ intent: 'comprobante', clave: key }, { name: 'r.pdf', bytes: PDF }),
    )
    expect(answer).toMatchObject({ status: 302, location: `/pedido/${order.number}?clave=${key}` })
    expect((await receiptOf(t.db, order.id))?.contentType).toBe('application/pdf')
    expect((await listOrderEvents(t.db, order.id)).map((event) => event.message)).toEqual([
      'Comprobante de pago recibido.',
    ])

    const url = new URL(`${BASE}/pedido/${order.number}?clave=${key}`)
    const page = (await orderStatus.loader({
      request: new Request(url),
      url,
      params: { numero: String(order.number) },
      context: routeContext(services),
    } as never)) as { order: { status: string }; transfer: { receiptUploaded: boolean } | null }
    expect(page.order.status).toBe('Pendiente de pago')
    expect(page.transfer?.receiptUploaded).toBe(true)
  })

  test('without the key nothing is kept', async () => {
    const order = await transferOrder()
    const answer = await postToOrderPage(
      order.number,
      form({ intent: 'comprobante', clave: 'falsa' }, { name: 'r.pdf', bytes: PDF }),
    )
    expect(answer.status).toBe(403)
    expect(await receiptOf(t.db, order.id)).toBeNull()
  })
})

describe('the desk opens the receipt', () => {
  const open = (id: string) =>
    paymentReceipt.loader({ params: { id }, context: routeContext(services) } as never) as Promise<Response>

  test('an image inline, sandboxed, with its own type and never cached', async () => {
    const order = await transferOrder()
    const png = await pngUpload()
    await postToSuccessPage(order.id, form({ intent: 'comprobante', pedido: order.id }, png))
    const response = await open(order.id)
    expect(response.status).toBe(200)
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      'content-security-policy': expect.stringContaining('sandbox'),
    })
    expect(response.headers.get('Content-Disposition')).toMatch(/^inline; filename="comprobante-.+\.png"$/)
    expect(Buffer.from(await response.arrayBuffer()).equals(png.bytes)).toBe(true)
  })

  test('a PDF inline with its type; an order without a receipt, or a bad id, is 404', async () => {
    const order = await transferOrder()
    await postToSuccessPage(
      order.id,
      form({ intent: 'comprobante', pedido: order.id }, { name: 'r.pdf', bytes: PDF }),
    )
    const response = await open(order.id)
    expect(response.headers.get('Content-Type')).toBe('application/pdf')
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect((await open((await transferOrder()).id)).status).toBe(404)
    expect((await open('no-es-un-id')).status).toBe(404)
  })
})
