import { randomUUID } from 'node:crypto'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { MESSAGES_TEXTS } from '#app/modules/messages/validators.ts'
import { ORDER_DESK_MESSAGES } from '#app/modules/order/messages.ts'
import { createOrder } from '#tests/factories.ts'
import { expectMessage } from './admin-session.ts'
import {
  collectErrors,
  DESKTOP,
  gotoHydrated,
  PHONE,
  plain,
  screenshotAtBothWidths,
  seriousViolations,
  setupBrowser,
} from './browser.ts'
import { startOwnServer, type OwnServer } from './own-server.ts'

/**
 * "Mensajes y Notificaciones" as the owner uses it, on shops of this file's own, one per width
 * (turning a buyer message on would add timeline entries to the shared shop's orders): the numbers from the
 * environment come first, a save is kept, "Enviar prueba" says honestly that nothing was sent
 * without a WhatsApp token, and a cash-on-delivery order confirmed at the desk shows the message to
 * send by hand on its timeline.
 */

const browser = setupBrowser()
const SHOTS = 'test-results/admin-messages'
const OWNER = 'duena@vitrina.test'
type Width = 'phone' | 'desktop'
/** A shop per width, so each test sees the environment's numbers first whatever ran before it. */
const servers = new Map<Width, { server: OwnServer; orderId: string }>()

beforeAll(async () => {
  await Promise.all(
    (['phone', 'desktop'] as const).map(async (width) => {
      const orderId = randomUUID()
      const server = await startOwnServer({
        name: `mensajes-${width}`,
        owner: OWNER,
        env: { WHATSAPP_NOTIFY_NUMBERS: '573001112233' },
        // One cash-on-delivery order to confirm at the desk.
        seed: (db) =>
          createOrder(db, {
            id: orderId,
            paymentMethod: 'acordar',
            customerName: 'Rosa',
            customerLastName: 'Arango',
            customerPhone: '3004445566',
            customerAddress: 'Calle 10 # 43-12',
            customerCity: 'Medellín',
            customerDepartment: 'Antioquia',
          }).then(() => undefined),
      })
      servers.set(width, { server, orderId })
    }),
  )
}, 120_000)

afterAll(async () => {
  await Promise.all([...servers.values()].map(({ server }) => server.stop()))
})

async function ownerPage(server: OwnServer, size: typeof PHONE) {
  const page = await browser.page(size)
  await browser.context.addCookies([{ ...server.ownerCookie, url: server.base }])
  return page
}

const numbers = (page: Page) => page.getByLabel('Números que reciben el aviso de pedido nuevo')
const confirmedBox = (page: Page) =>
  page.getByTestId('buyer-message-confirmed').getByRole('checkbox', { name: 'Pedido confirmado' })
const confirmedTemplate = (page: Page) => page.getByTestId('buyer-message-confirmed').getByLabel('Plantilla')

test.each([
  ['phone', PHONE, '300 555 0101', '573005550101', 'confirmacion_movil'],
  ['desktop', DESKTOP, '+57 310 555 0202', '573105550202', 'confirmacion_escritorio'],
] as const)(
  'at %s width: save, reload, "Enviar prueba", and the confirmed order’s message on its timeline',
  async (label, size, typed, saved, template) => {
    const { server, orderId } = servers.get(label)!
    const page = await ownerPage(server, size)
    const errors = collectErrors(page)
    const base = server.base

    // From the menu (behind the menu button on a phone).
    await gotoHydrated(page, `${base}/admin`)
    if (label === 'phone') await page.getByRole('button', { name: /menú/i }).click()
    await page.getByTestId('admin-menu').getByRole('link', { name: 'Mensajes y Notificaciones' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/mensajes')
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await page.getByRole('heading', { name: 'Mensajes y Notificaciones', level: 1 }).waitFor()
    expect(await page.getByTestId('admin-help-link').getAttribute('href')).toBe('/admin/ayuda#mensajes')
    expect(plain(await page.getByTestId('whatsapp-status').innerText())).toContain(
      'WhatsApp no está configurado',
    )
    // Before any save, the environment's number (WHATSAPP_NOTIFY_NUMBERS).
    expect(await numbers(page).inputValue()).toBe('573001112233')
    // Each template's variables are documented.
    expect(plain(await page.getByTestId('parameters-shipped').innerText())).toContain('{{4}} número de guía')

    // A wrong number is refused in Spanish, keeping what was typed.
    await numbers(page).fill('12345')
    await page.getByRole('button', { name: 'Guardar', exact: true }).click()
    await expectMessage(page, MESSAGES_TEXTS.invalid)
    expect(await page.getByText(MESSAGES_TEXTS.number('12345')).isVisible()).toBe(true)
    expect(await numbers(page).inputValue()).toBe('12345')

    await numbers(page).fill(typed)
    await confirmedBox(page).check()
    await confirmedTemplate(page).fill(template)
    await page.getByRole('button', { name: 'Guardar', exact: true }).click()
    await expectMessage(page, MESSAGES_TEXTS.saved)
    await expect
      .poll(async () => plain(await page.getByTestId('message-change').first().innerText()))
      .toContain(OWNER)

    // After a reload the saved values are there, the number as WhatsApp wants it.
    await gotoHydrated(page, `${base}/admin/mensajes`)
    expect(await numbers(page).inputValue()).toBe(saved)
    expect(await confirmedBox(page).isChecked()).toBe(true)
    expect(await confirmedTemplate(page).inputValue()).toBe(template)

    // No token on this server: nothing is sent, and the page says so.
    await page.getByRole('button', { name: 'Enviar prueba' }).click()
    await expectMessage(page, MESSAGES_TEXTS.testNoToken)
    await screenshotAtBothWidths(page, `${SHOTS}/page-${label}`)
    expect(await seriousViolations(page)).toEqual([])

    // A cash-on-delivery order confirmed at the desk: the job records the message it could not
    // send, with the chat to send it by hand.
    await page.setViewportSize(size)
    await gotoHydrated(page, `${base}/admin/pedidos/detalle/${orderId}`)
    await page.getByRole('button', { name: 'Confirmado', exact: true }).click()
    await expectMessage(page, ORDER_DESK_MESSAGES.confirmed)
    const skipped = page.getByTestId('order-event').and(page.locator('[data-type="buyer-message-skipped"]'))
    await expect
      .poll(
        async () => {
          await gotoHydrated(page, `${base}/admin/pedidos/detalle/${orderId}`)
          return skipped.count()
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1)
    expect(plain(await skipped.innerText())).toContain(
      'Mensaje al cliente «Pedido confirmado» sin enviar: WhatsApp no está configurado.',
    )
    const chat = new URL(
      (await skipped.getByRole('link', { name: 'Enviar por WhatsApp' }).getAttribute('href'))!,
    )
    expect(chat.origin + chat.pathname).toBe('https://wa.me/573004445566')
    expect(chat.searchParams.get('text')).toMatch(
      /^Hola Rosa, tu pedido #\d+ de .+ está confirmado\. Síguelo aquí: http/,
    )
    await skipped.scrollIntoViewIfNeeded()
    await screenshotAtBothWidths(page, `${SHOTS}/timeline-${label}`)
    // The refused save (422) and the test that could not be sent (409) are the only failed answers.
    expect(errors).toEqual([
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
      'Failed to load resource: the server responded with a status of 409 (Conflict)',
    ])
  },
  120_000,
)
