import { beforeAll, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { CATEGORY_MESSAGES } from '#app/modules/catalog/validators.ts'
import { PROMOTION_MESSAGES } from '#app/modules/promotions/validators.ts'
import { DESKTOP, gotoHydrated, PHONE, plain, screenshotAtBothWidths, setupBrowser } from './browser.ts'
import { acceptNextDialog, expectMessage, signInAsAdmin } from './admin-session.ts'

/**
 * "Descuentos y Promociones" in a browser, at 390 px and 1280 px. The shop is shared with tests
 * that buy: the codes here are unique, the automatic promotion covers a category of its own with no
 * products, and every promotion made here is ended in `finally`.
 */

const browser = setupBrowser()
const TAG = Date.now().toString(36).toUpperCase()
const CATEGORY = `Promo E2E ${TAG}`
const CODE_NAME = `Cupón prueba ${TAG}`
const CODE = `PRUEBA-${TAG}`
const AUTO_NAME = `Lleve 3 prueba ${TAG}`
const SHOTS = 'test-results/admin-promotions'

beforeAll(() => browser.startEachTestWith((page) => signInAsAdmin(page)))

const items = (page: Page) => page.locator('[data-testid="promotion-item"]:visible')
const item = (page: Page, name: string) =>
  items(page).filter({ has: page.getByTestId('promotion-name').getByText(name, { exact: true }) })
/** Waits until the promotion's badge says `state` (the list reloads just after the message shows). */
const expectState = (page: Page, name: string, state: string) =>
  item(page, name)
    .getByTestId('promotion-state')
    .getByText(state, { exact: true })
    .waitFor({ timeout: 10_000 })

/** Ends every promotion this file made that is still running (they must not outlive the test). */
async function endOurs(page: Page) {
  await page.setViewportSize(DESKTOP)
  for (;;) {
    // A fresh page each time: no button is left disabled by the post before.
    await gotoHydrated(page, '/admin/descuentos')
    const button = items(page)
      .filter({ hasText: TAG })
      .getByRole('button', { name: /^Terminar ahora/ })
      .first()
    if (!(await button.count())) return
    const name = (await button.getAttribute('aria-label'))!.replace(/^Terminar ahora /, '')
    const asked = acceptNextDialog(page)
    await button.click()
    await asked
    await expectMessage(page, PROMOTION_MESSAGES.ended(name))
  }
}

test('create a code and an automatic "lleve 3 pague 2", edit, duplicate, pause, resume, end now', async () => {
  const page = await browser.page()
  try {
    // A category of this test's own, with no products: the automatic promotion changes no price.
    await gotoHydrated(page, '/admin/categorias/crear')
    await page.getByLabel('Nombre').fill(CATEGORY)
    await page.getByRole('button', { name: 'Crear categoría' }).click()
    await expectMessage(page, CATEGORY_MESSAGES.created)

    // The menu opens the list.
    await page.getByTestId('admin-menu').getByRole('link', { name: 'Descuentos y Promociones' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/descuentos')
    await page.getByRole('heading', { name: 'Descuentos y Promociones' }).waitFor()
    await page.waitForFunction(() => document.title === 'Descuentos y Promociones | Administración')
    await page.getByRole('link', { name: 'Nueva promoción' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/descuentos/nueva')
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')

    // A refused form keeps what was typed, with the field's message beside it.
    await page.getByLabel('Nombre').fill(CODE_NAME)
    await page.getByLabel('Código', { exact: true }).fill('mal código!')
    await page.getByLabel('Porcentaje (%)').fill('10')
    await page.getByLabel('Usos en total').fill('50')
    await page.getByRole('button', { name: 'Crear promoción' }).click()
    await expectMessage(page, PROMOTION_MESSAGES.invalid)
    await page.getByText(PROMOTION_MESSAGES.codeCharacters).waitFor()
    expect(await page.getByLabel('Nombre').inputValue()).toBe(CODE_NAME)
    expect(await page.getByLabel('Usos en total').inputValue()).toBe('50')
    await screenshotAtBothWidths(page, `${SHOTS}/refused`)

    await page.getByLabel('Código', { exact: true }).fill(CODE.toLowerCase())
    await page.getByRole('button', { name: 'Crear promoción' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/descuentos')
    await expectMessage(page, PROMOTION_MESSAGES.created)
    expect(plain(await item(page, CODE_NAME).textContent())).toContain(CODE)
    expect(plain(await item(page, CODE_NAME).getByTestId('promotion-gives').textContent())).toBe(
      '10 % en todo el pedido',
    )
    await expectState(page, CODE_NAME, 'Activa')
    expect(plain(await item(page, CODE_NAME).getByTestId('promotion-uses').textContent())).toBe('0 de 50')

    // The automatic "lleve 3 pague 2" on the category: with scripts, only its fields show.
    await gotoHydrated(page, '/admin/descuentos/nueva')
    await page.getByLabel('Nombre').fill(AUTO_NAME)
    await page.getByLabel('Promoción automática (sin código)').check()
    await page.getByLabel('Qué da').selectOption('buy_x_pay_y')
    await page.getByLabel('Sobre qué').selectOption('products')
    expect(await page.getByLabel('Código', { exact: true }).isVisible()).toBe(false)
    expect(await page.getByLabel('Porcentaje (%)').isVisible()).toBe(false)
    await page.getByLabel('Lleve (N)').fill('3')
    await page.getByLabel('Pague (M)').fill('2')
    await page.getByLabel(CATEGORY).check()
    await screenshotAtBothWidths(page, `${SHOTS}/form`)
    await page.getByRole('button', { name: 'Crear promoción' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/descuentos')
    await expectMessage(page, PROMOTION_MESSAGES.created)
    expect(plain(await item(page, AUTO_NAME).getByTestId('promotion-gives').textContent())).toBe(
      `Lleve 3 pague 2 en ${CATEGORY}`,
    )
    expect(plain(await item(page, AUTO_NAME).textContent())).toContain('Automática')
    await screenshotAtBothWidths(page, `${SHOTS}/list`)

    // Edit the code: 15 %.
    await item(page, CODE_NAME)
      .getByRole('link', { name: /^Editar/ })
      .click()
    await page.waitForURL((url) => url.pathname.startsWith('/admin/descuentos/editar/'))
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    expect(await page.getByLabel('Código', { exact: true }).inputValue()).toBe(CODE)
    await page.getByLabel('Porcentaje (%)').fill('15')
    await page.getByRole('button', { name: 'Guardar cambios' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/descuentos')
    await expectMessage(page, PROMOTION_MESSAGES.updated)
    expect(plain(await item(page, CODE_NAME).getByTestId('promotion-gives').textContent())).toBe(
      '15 % en todo el pedido',
    )

    // Duplicate: a paused copy under a free code.
    await item(page, CODE_NAME)
      .getByRole('button', { name: /^Duplicar/ })
      .click()
    await expectMessage(page, PROMOTION_MESSAGES.duplicated(`${CODE_NAME} (copia)`))
    await expectState(page, `${CODE_NAME} (copia)`, 'Pausada')
    expect(plain(await item(page, `${CODE_NAME} (copia)`).textContent())).toContain(`${CODE}-COPIA`)

    // Pause and resume the automatic one, then end it now.
    await item(page, AUTO_NAME)
      .getByRole('button', { name: /^Pausar/ })
      .click()
    await expectMessage(page, PROMOTION_MESSAGES.paused(AUTO_NAME))
    await expectState(page, AUTO_NAME, 'Pausada')
    await item(page, AUTO_NAME)
      .getByRole('button', { name: /^Reanudar/ })
      .click()
    await expectMessage(page, PROMOTION_MESSAGES.resumed(AUTO_NAME))
    await expectState(page, AUTO_NAME, 'Activa')
    const asked = acceptNextDialog(page)
    await item(page, AUTO_NAME)
      .getByRole('button', { name: /^Terminar ahora/ })
      .click()
    expect(await asked).toContain(`¿Terminar ahora «${AUTO_NAME}»?`)
    await expectMessage(page, PROMOTION_MESSAGES.ended(AUTO_NAME))
    await expectState(page, AUTO_NAME, 'Vencida')
    expect(
      await item(page, AUTO_NAME)
        .getByRole('button', { name: /^Reanudar|^Pausar/ })
        .count(),
    ).toBe(0)
  } finally {
    await endOurs(page)
    await page.close()
  }
})

test('at 390 px the list is cards and the form fits the screen', async () => {
  const page = await browser.page(PHONE)
  await gotoHydrated(page, '/admin/descuentos')
  expect(await page.getByTestId('promotion-table').isVisible()).toBe(false)
  const first = items(page).first()
  await first.waitFor()
  const box = await first.boundingBox()
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  await page.screenshot({ path: `${SHOTS}/list-390.png`, fullPage: true })
  await gotoHydrated(page, '/admin/descuentos/nueva')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  await page.screenshot({ path: `${SHOTS}/form-390.png`, fullPage: true })
  await page.close()
})
