import { eq } from 'drizzle-orm'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Db } from '#app/db/client.server.ts'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { CLAIM_MESSAGES, claimDeadline } from '#app/modules/order/claims.ts'
import { spanishDay } from '#app/utils/spanish-dates.ts'
import { CLAIM_NOTICE_TEMPLATE } from '#app/modules/order/claim-notice.server.ts'
import { completeOrder } from '#app/modules/order/complete.server.ts'
import { markOrderPaid } from '#app/modules/order/mark-paid.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { shipOrder } from '#app/modules/order/ship.server.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { startWhatsAppStandIn, type WhatsAppStandIn } from '#tests/stand-ins/whatsapp.ts'
import { expectMessage } from './admin-session.ts'
import {
  collectErrors,
  declinedConsentCookie,
  DESKTOP,
  gotoHydrated,
  PHONE,
  plain,
  seriousViolations,
  setupBrowser,
} from './browser.ts'
import { startOwnServer, type OwnServer } from './own-server.ts'

/**
 * The buyer's rights after a distance sale (Ley 1480 de 2011) on a shop whose clock reads Monday
 * 14 December 2026 in Bogotá: a withdrawal asked on the 5th business day after delivery (Tuesday 8
 * is a holiday) and accepted at the desk, one on the 6th refused by the page itself, and a payment
 * reversal of an online payment that reaches the owner's WhatsApp at once, without JavaScript.
 *
 * The terms depend on today's date, so this file runs a server of its own on the e2e build, with
 * tests/e2e/fake-clock.mjs moving its clock, and its own database, seeded before it starts.
 */

const FAKE_NOW = '2026-12-14T10:00:00-05:00'
const TODAY = '2026-12-14'
const OWNER = 'duena@vitrina.test'
const NOTIFY_NUMBER = '573001112233'
const LOOKUP_REFUSED = 'No encontramos un pedido con ese número y esos dígitos del teléfono.'
const SHOTS = 'test-results/order-rights'

const browser = setupBrowser(DESKTOP)
let server: OwnServer | undefined
let whatsapp: WhatsAppStandIn | undefined
let base = ''
let sessionCookie = { name: '', value: '' }

type Seeded = { id: string; number: number; sku: string; phone: string; units: number }
/** A: cash on delivery, delivered Friday 4 Dec (day 5 today). B: delivered Thursday 3 Dec (day 6). C: paid online. */
const seeded = {} as Record<'a' | 'b' | 'c', Seeded>

/** Bogotá noon of a day, as an instant. */
const bogotaNoon = (day: string) => new Date(`${day}T12:00:00-05:00`)

/**
 * An order the way the shop makes one: placed through checkout (2 units reserved of a product with
 * 5 in stock), paid online when asked, shipped (its exits in the ledger) and completed; then its
 * days moved to the ones the test needs.
 */
async function deliveredOrder(
  db: Db,
  { phone, deliveredDay, online = false }: { phone: string; deliveredDay: string; online?: boolean },
): Promise<Seeded> {
  const jobs = recordingJobQueue()
  const product = await stockedProduct(db, 5)
  const placed = await placeTestOrder(db, {
    sku: product.sku,
    quantity: 2,
    phone,
    paymentMethod: online ? 'mercadopago' : 'acordar',
  })
  if (online) {
    await db.transaction((tx) =>
      markOrderPaid(tx, placed.id, { id: `pago-${placed.number}`, status: 'approved' }, recordingJobQueue()),
    )
  }
  await shipOrder(
    db,
    jobs,
    placed.id,
    { carrier: 'Servientrega', trackingNumber: `SV-${placed.number}` },
    OWNER,
  )
  await completeOrder(db, jobs, placed.id, OWNER)
  await db
    .update(orders)
    .set({
      createdAt: bogotaNoon('2026-11-30'),
      shippedAt: bogotaNoon('2026-12-01'),
      deliveredAt: bogotaNoon(deliveredDay),
    })
    .where(eq(orders.id, placed.id))
  return { id: placed.id, number: placed.number, sku: product.sku, phone, units: 2 }
}

beforeAll(async () => {
  whatsapp = await startWhatsAppStandIn()
  server = await startOwnServer({
    name: 'derechos',
    owner: OWNER,
    // The owner's session starts at the server's today too, or its clock would find it expired.
    now: FAKE_NOW,
    env: {
      WHATSAPP_TOKEN: whatsapp.token,
      WHATSAPP_PHONE_NUMBER_ID: whatsapp.phoneNumberId,
      WHATSAPP_API_URL: whatsapp.url,
      WHATSAPP_NOTIFY_NUMBERS: NOTIFY_NUMBER,
    },
    async seed(db) {
      seeded.a = await deliveredOrder(db, { phone: '3104445501', deliveredDay: '2026-12-04' })
      seeded.b = await deliveredOrder(db, { phone: '3104445502', deliveredDay: '2026-12-03' })
      seeded.c = await deliveredOrder(db, { phone: '3104445503', deliveredDay: '2026-12-10', online: true })
    },
  })
  base = server.base
  sessionCookie = server.ownerCookie
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await whatsapp?.stop()
})

/** A tab of the test's context on this file's server; `owner` adds the signed-in owner's cookie. */
async function shopPage(viewport = DESKTOP, { owner = false } = {}) {
  const page = await browser.page(viewport)
  await page
    .context()
    .addCookies([declinedConsentCookie(base), ...(owner ? [{ ...sessionCookie, url: base }] : [])])
  return page
}

/** Units this server's storefront says it can sell of a product. */
async function available(sku: string) {
  const answer = await fetch(`${base}/api/carrito?skus=${encodeURIComponent(sku)}`)
  const { products } = (await answer.json()) as { products: { available: number }[] }
  return products[0]?.available ?? 0
}

const message = (page: Page) => page.getByTestId('order-page-message')

/** "Consulta tu pedido": types `digits` and sends them (with or without the page's scripts). */
async function lookUp(page: Page, digits: string) {
  await page.getByLabel('Últimos 4 dígitos del teléfono').fill(digits)
  await page.getByRole('button', { name: 'Ver mi pedido' }).click()
}

/** Opens `/pedido/{n}` without its key, first tries wrong digits, then the phone's last 4. */
async function openWithDigits(page: Page, order: Seeded, { hydrated = true } = {}) {
  const url = `${base}/pedido/${order.number}`
  if (hydrated) await gotoHydrated(page, url)
  else await page.goto(url)
  await page.getByRole('heading', { name: `Consulta tu pedido ${order.number}` }).waitFor()
  await lookUp(page, order.phone.endsWith('0000') ? '1111' : '0000')
  await message(page)
    .and(page.getByText(LOOKUP_REFUSED, { exact: true }))
    .waitFor()
  await lookUp(page, order.phone.slice(-4))
  await page.waitForURL((url) => url.pathname === `/pedido/${order.number}` && url.searchParams.has('clave'))
  await page.getByRole('heading', { name: `Pedido ${order.number}`, exact: true }).waitFor()
  if (hydrated) await page.waitForFunction(() => document.documentElement.dataset.settled === 'true')
}

/** An element's screenshot at phone and desktop width, `${name}-phone.png` / `-desktop.png`. */
async function shootBoth(page: Page, target: Locator | null, name: string) {
  for (const [label, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(size)
    const file = `${SHOTS}/${name}-${label}.png`
    if (target) await target.screenshot({ path: file })
    else await page.screenshot({ path: file, fullPage: true })
  }
}

/** The text of the buyer page's section under this heading. */
const sectionText = async (page: Page, heading: string) =>
  plain(await page.getByRole('region', { name: heading, exact: true }).innerText())

/**
 * The page's errors but the one the wrong digits cause: the browser logs the refusal's 400 answer
 * to the lookup as a failed load.
 */
const unexpected = (errors: string[]) =>
  errors.filter(
    (error) => error !== 'Failed to load resource: the server responded with a status of 400 (Bad Request)',
  )

describe('derecho de retracto', () => {
  test('on the 5th business day after delivery the buyer asks for it and the owner accepts it: cancelled, units back', async () => {
    const order = seeded.a
    const page = await shopPage()
    const errors = collectErrors(page)
    await openWithDigits(page, order)
    const buyerUrl = page.url()

    expect(plain(await page.getByTestId('buyer-order-status').innerText())).toBe('Estado: Entregado')
    expect(plain(await page.getByTestId('buyer-shipment').innerText())).toBe(
      `Guía SV-${order.number} (Servientrega)`,
    )
    const retracto = await sectionText(page, 'Derecho de retracto')
    expect(retracto).toContain('Puedes pedirlo hasta el 14 de diciembre de 2026')
    // Cash on delivery: nothing to reverse.
    expect(await page.getByRole('region', { name: 'Reversión del pago' }).count()).toBe(0)
    await shootBoth(page, null, 'retracto-open')
    expect(await seriousViolations(page)).toEqual([])

    await page.getByLabel('Cuéntanos el motivo (opcional)').fill('La talla no me quedó bien.')
    await page.getByRole('button', { name: 'Solicitar retracto' }).click()
    await message(page)
      .and(page.getByText(CLAIM_MESSAGES.retractoRequested, { exact: true }))
      .waitFor()
    const refundBy = claimDeadline('retracto', TODAY)
    expect(refundBy).toBe('2027-01-13')
    await page.getByRole('heading', { name: 'Tus solicitudes' }).waitFor()
    expect(plain(await page.getByTestId('buyer-claims').innerText())).toContain(
      'Solicitud de retracto del 14 de diciembre de 2026: pendiente. Te escribiremos para acordar la ' +
        'devolución del producto; el dinero se devuelve a más tardar el 13 de enero de 2027.',
    )
    // One request at a time: the form is gone while it waits.
    expect(await page.getByRole('button', { name: 'Solicitar retracto' }).count()).toBe(0)
    expect(await sectionText(page, 'Derecho de retracto')).toContain(CLAIM_MESSAGES.alreadyOpen)
    await shootBoth(page, null, 'retracto-requested')
    expect(unexpected(errors)).toEqual([])

    // The owner, on the desk: the request with its deadline, accepted with how the money went back.
    const before = await available(order.sku)
    await page.context().addCookies([{ ...sessionCookie, url: base }])
    await gotoHydrated(page, `${base}/admin/pedidos/detalle/${order.id}`)
    const claims = page.getByTestId('order-claims')
    expect(await claims.getByTestId('order-claim').count()).toBe(1)
    const claim = plain(await claims.getByTestId('order-claim').innerText())
    expect(claim).toContain('Solicitud de retracto — pendiente. Recibida el 14 de diciembre de 2026.')
    expect(claim).toContain('La talla no me quedó bien.')
    expect(plain(await claims.getByTestId('claim-deadline').innerText())).toContain(
      `Plazo: ${spanishDay(refundBy)} (faltan 30 días).`,
    )
    await shootBoth(page, claims, 'desk-claim-pending')
    expect(await seriousViolations(page)).toEqual([])

    await claims.getByLabel('Cómo devolviste el dinero').fill('Transferencia Nequi del 14/12')
    await claims.getByRole('button', { name: 'Aceptar y registrar la devolución' }).click()
    await expectMessage(page, CLAIM_MESSAGES.accepted)
    await expect.poll(() => page.getByTestId('order-status').first().innerText()).toBe('cancelado')
    const timeline = await page
      .getByTestId('order-event')
      .evaluateAll((items) =>
        items.map((item) => ({ type: item.getAttribute('data-type'), text: item.textContent })),
      )
    expect(timeline.find((event) => event.type === 'claim-accepted')?.text).toContain(
      'Derecho de retracto aceptado. Reembolso: Transferencia Nequi del 14/12.',
    )
    expect(timeline.find((event) => event.type === 'cancelled')?.text).toContain(
      'Derecho de retracto: solicitud aceptada.',
    )
    const movements = await page
      .getByTestId('order-movement')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-type')))
    expect(movements).toEqual(['out', 'in'])
    expect(await available(order.sku)).toBe(before + order.units)
    expect(await claims.getByRole('button', { name: 'Aceptar y registrar la devolución' }).count()).toBe(0)
    expect(plain(await claims.getByTestId('claim-decision').innerText())).toBe(
      `Aceptada por ${OWNER}. Devolución: Transferencia Nequi del 14/12.`,
    )
    await shootBoth(page, claims, 'desk-claim-accepted')

    // The buyer reads the answer on the same link.
    await gotoHydrated(page, buyerUrl)
    expect(plain(await page.getByTestId('buyer-order-status').innerText())).toBe('Estado: Cancelado')
    expect(plain(await page.getByTestId('buyer-claims').innerText())).toBe(
      'Solicitud de retracto del 14 de diciembre de 2026: aceptada.',
    )
    // Nothing left to ask of a cancelled order (not "se puede ejercer cuando el pedido ya fue entregado").
    expect(await page.getByRole('region', { name: 'Derecho de retracto' }).count()).toBe(0)
    await shootBoth(page, null, 'retracto-accepted')
    expect(unexpected(errors)).toEqual([])
  })

  test('on the 6th business day the page says the term is over, and offers no form', async () => {
    const order = seeded.b
    const page = await shopPage(PHONE)
    const errors = collectErrors(page)
    await openWithDigits(page, order)
    expect(await page.getByTestId('retracto-closed').innerText()).toBe(
      'El plazo para el retracto venció el 11 de diciembre de 2026 (5 días hábiles desde la entrega).',
    )
    expect(await page.getByRole('button', { name: 'Solicitar retracto' }).count()).toBe(0)
    expect(await page.getByRole('heading', { name: 'Tus solicitudes' }).count()).toBe(0)
    await shootBoth(page, null, 'retracto-closed')
    expect(await seriousViolations(page)).toEqual([])
    expect(unexpected(errors)).toEqual([])
  })
})

describe('reversión del pago, without JavaScript', () => {
  let context: BrowserContext | undefined
  afterAll(async () => {
    await context?.close()
  })

  test('the buyer asks for it with plain posts, and the owner hears of it on WhatsApp at once', async () => {
    const order = seeded.c
    // A context of its own from the same Chromium, with scripts off: every form is a plain post.
    const chromium = (await browser.page()).context().browser()!
    context = await chromium.newContext({
      viewport: PHONE,
      locale: 'es-CO',
      timezoneId: 'America/Bogota',
      javaScriptEnabled: false,
    })
    await context.addCookies([declinedConsentCookie(base)])
    const page = await context.newPage()
    await openWithDigits(page, order, { hydrated: false })
    expect(plain(await page.getByTestId('buyer-order-status').innerText())).toBe('Estado: Entregado')

    const reversal = await sectionText(page, 'Reversión del pago')
    expect(reversal).toContain('Ley 1480 de 2011')
    await page.getByLabel('Motivo', { exact: true }).selectOption({ label: 'El producto llegó defectuoso' })
    await page.getByLabel('¿Cuándo supiste del motivo?').fill('2026-12-11')
    await page.getByLabel('Cuéntanos qué pasó (opcional)').fill('El broche llegó roto.')
    await shootBoth(page, null, 'reversal-form')
    await page.getByRole('button', { name: 'Solicitar reversión del pago' }).click()
    await message(page)
      .and(page.getByText(CLAIM_MESSAGES.reversalRequested, { exact: true }))
      .waitFor()
    expect(plain(await page.getByTestId('buyer-claims').innerText())).toContain(
      'Solicitud de reversión del pago del 14 de diciembre de 2026: pendiente. Motivo: El producto llegó ' +
        `defectuoso. Te respondemos a más tardar el ${spanishDay(claimDeadline('reversion', TODAY))}.`,
    )
    await shootBoth(page, null, 'reversal-requested')

    // The job worker runs in the server: the owner's number gets the "solicitud_cliente" template.
    await expect
      .poll(() => whatsapp!.sent.filter((sent) => sent.parameters[0] === String(order.number)), {
        timeout: 20_000,
      })
      .toEqual([
        expect.objectContaining({
          to: NOTIFY_NUMBER,
          name: CLAIM_NOTICE_TEMPLATE,
          language: 'es',
          parameters: [
            String(order.number),
            'Reversión del pago',
            spanishDay(claimDeadline('reversion', TODAY)),
          ],
        }),
      ])

    // The desk shows it waiting, with the issuer's term, and no refund note to write (paid online).
    const desk = await shopPage(DESKTOP, { owner: true })
    await gotoHydrated(desk, `${base}/admin/pedidos/detalle/${order.id}`)
    const claims = desk.getByTestId('order-claims')
    const text = plain(await claims.innerText())
    expect(text).toContain('Motivo: El producto llegó defectuoso.')
    expect(text).toContain('El cliente lo supo el 11 de diciembre de 2026.')
    expect(plain(await claims.getByTestId('claim-deadline').innerText())).toContain(
      `Plazo: ${spanishDay(claimDeadline('reversion', TODAY))}`,
    )
    expect(await claims.getByLabel('Cómo devolviste el dinero').count()).toBe(0)
    expect(await claims.getByRole('button', { name: 'Aceptar la reversión' }).count()).toBe(1)
    await shootBoth(desk, claims, 'desk-reversal-pending')
  })
})
