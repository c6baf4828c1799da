import type { Page } from 'playwright-core'
import { expect, inject, test } from 'vitest'
import { ADMIN_MENU } from '#app/components/admin/menu.ts'
import { LOCAL_ADMIN_EMAIL } from '#app/modules/auth/config.server.ts'
import { UNAUTHORISED_MESSAGE } from '#app/modules/auth/messages.ts'
import { formatCOP } from '#app/utils/money.ts'
import { baseURL, gotoHydrated, PHONE, plain, seriousViolations, setupBrowser } from './browser.ts'

// The test server runs without ADMIN_EMAILS and without Google: the bundled provider signs people
// in, and the documented demo address is the admin.
const browser = setupBrowser()

/** From /login-admin through the local provider's page, as a person would. */
async function signInThroughProvider(
  page: Page,
  person: { email: string; name: string; verified?: boolean },
) {
  await page.getByRole('button', { name: 'Iniciar sesión con Google' }).click()
  await page.waitForURL((url) => url.pathname.includes('/dev-idp/interaccion/'))
  expect(await page.getByTestId('hint-email').textContent()).toBe(LOCAL_ADMIN_EMAIL)
  await page.getByLabel('Correo electrónico').fill(person.email)
  await page.getByLabel('Nombre').fill(person.name)
  const verified = page.getByLabel('Correo verificado')
  expect(await verified.isChecked()).toBe(true)
  if (person.verified === false) await verified.uncheck()
  await page.getByRole('button', { name: 'Continuar' }).click()
}

test('signing in from the other loopback name works, and the provider page asks for no missing file', async () => {
  // The test server's PUBLIC_URL is 127.0.0.1; a newcomer may type localhost (or the other way round).
  const shop = new URL(baseURL())
  const other = `http://localhost:${shop.port}`
  const page = await browser.page()
  const missing: string[] = []
  page.on('response', (response) => {
    if (response.status() >= 400) missing.push(`${response.status()} ${response.url()}`)
  })
  await gotoHydrated(page, `${other}/admin/perfil`)
  // Sent to the shop's own address before the sign-in begins, so its cookie comes back.
  expect(new URL(page.url()).origin).toBe(shop.origin)
  expect(new URL(page.url()).pathname).toBe('/login-admin')
  await signInThroughProvider(page, { email: LOCAL_ADMIN_EMAIL, name: 'Desde Localhost' })
  await page.waitForURL((url) => url.pathname === '/admin/perfil')
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  expect(plain(await page.getByTestId('admin-greeting').textContent())).toBe('Hola, Desde Localhost')
  expect(missing).toEqual([])
  await page.getByRole('button', { name: 'Cerrar sesión' }).click()
  await page.waitForURL((url) => url.pathname === '/login-admin')
  await page.close()
})

test('an anonymous visit to /admin goes to /login-admin', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/admin/perfil')
  expect(new URL(page.url()).pathname).toBe('/login-admin')
  expect(await page.getByRole('button', { name: 'Iniciar sesión con Google' }).isVisible()).toBe(true)
  expect(await seriousViolations(page)).toEqual([])
  await page.close()
})

test('an unlisted e-mail sees the unauthorised message', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/login-admin')
  await signInThroughProvider(page, { email: 'intruso@example.com', name: 'Intruso' })
  await page.waitForURL((url) => url.pathname === '/login-admin' && url.searchParams.has('aviso'))
  expect(plain(await page.getByTestId('login-notice').textContent())).toBe(UNAUTHORISED_MESSAGE)
  await gotoHydrated(page, '/admin')
  expect(new URL(page.url()).pathname).toBe('/login-admin')
  await page.close()
})

test('the admin e-mail unverified is refused too', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/login-admin')
  await signInThroughProvider(page, { email: LOCAL_ADMIN_EMAIL, name: 'Sin Verificar', verified: false })
  await page.waitForURL((url) => url.pathname === '/login-admin' && url.searchParams.has('aviso'))
  expect(plain(await page.getByTestId('login-notice').textContent())).toBe(UNAUTHORISED_MESSAGE)
  await page.close()
})

test('cancelling at the provider shows a Spanish error', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/login-admin')
  await page.getByRole('button', { name: 'Iniciar sesión con Google' }).click()
  await page.waitForURL((url) => url.pathname.includes('/dev-idp/interaccion/'))
  await page.getByRole('button', { name: 'Cancelar' }).click()
  await page.waitForURL((url) => url.pathname === '/login-admin' && url.searchParams.has('error'))
  expect(await page.getByTestId('login-error').textContent()).toMatch(/Cancelaste el inicio de sesión/)
  await page.close()
})

test('the admin signs in, sees the greeting, the menu and the totals, and signs out', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/admin/perfil')
  await signInThroughProvider(page, { email: LOCAL_ADMIN_EMAIL, name: 'Ana Administradora' })
  // Back to the page first asked for.
  await page.waitForURL((url) => url.pathname === '/admin/perfil')
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  expect(plain(await page.getByTestId('admin-greeting').textContent())).toBe('Hola, Ana Administradora')
  expect(
    await page
      .getByTestId('admin-avatar')
      .first()
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(0)
  expect(plain(await page.getByTestId('profile-fields').textContent())).toContain(LOCAL_ADMIN_EMAIL)
  expect(plain(await page.getByTestId('profile-fields').textContent())).toContain('Correo verificadoSí')

  // The built sections of spec §2, in its order, then sign-out; sections not built are not shown.
  const menu = page.getByTestId('admin-menu')
  const live = ADMIN_MENU.filter((entry) => entry.to).map((entry) => entry.label)
  expect(live).toEqual(expect.arrayContaining(['Inicio', 'Productos', 'Categorías', 'Perfil']))
  const specOrder = ADMIN_MENU.map((entry) => entry.label)
  expect(live).toEqual([...live].sort((a, b) => specOrder.indexOf(a) - specOrder.indexOf(b)))
  expect((await menu.locator('li').allTextContents()).map((text) => text.trim())).toEqual([
    ...live,
    'Cerrar sesión',
  ])
  expect(await menu.getByRole('link').allTextContents()).toEqual(live)

  await menu.getByRole('link', { name: 'Inicio' }).click()
  await page.waitForURL((url) => url.pathname === '/admin')
  const totals = inject('inventoryTotals')
  expect(totals.units).toBeGreaterThan(0)
  expect(plain(await page.getByTestId('total-cost').textContent())).toBe(plain(formatCOP(totals.costValue)))
  expect(plain(await page.getByTestId('total-level1').textContent())).toBe(
    plain(formatCOP(totals.level1Value)),
  )
  expect(plain(await page.getByTestId('total-level5').textContent())).toBe(
    plain(formatCOP(totals.level5Value)),
  )
  expect(plain(await page.getByTestId('total-units').textContent())).toBe(
    totals.units.toLocaleString('es-CO'),
  )
  // Background jobs that ran out of retries (read from the running job queue's dead letters).
  expect(await page.getByRole('heading', { name: 'Tareas fallidas' }).isVisible()).toBe(true)
  expect(await seriousViolations(page)).toEqual([])

  // A signed-in admin who opens /login-admin goes to /admin.
  await gotoHydrated(page, '/login-admin')
  expect(new URL(page.url()).pathname).toBe('/admin')

  await page.getByRole('button', { name: 'Cerrar sesión' }).click()
  await page.waitForURL((url) => url.pathname === '/login-admin')
  expect(await page.getByTestId('login-notice').textContent()).toBe('Cerraste sesión.')
  await gotoHydrated(page, '/admin')
  expect(new URL(page.url()).pathname).toBe('/login-admin')
  await page.close()
})

test('on a phone the menu opens from the header button', async () => {
  const page = await browser.page(PHONE)
  await gotoHydrated(page, '/login-admin')
  await signInThroughProvider(page, { email: LOCAL_ADMIN_EMAIL, name: 'Ana' })
  await page.waitForURL((url) => url.pathname === '/admin')
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  const menu = page.getByTestId('admin-menu')
  expect(await menu.isVisible()).toBe(false)
  expect(await page.getByTestId('total-units').isVisible()).toBe(true)
  await page.getByTestId('admin-menu-toggle').click()
  expect(await menu.isVisible()).toBe(true)
  await menu.getByRole('link', { name: 'Perfil' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/perfil')
  expect(await menu.isVisible()).toBe(false)
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  await page.close()
})

test('"Cargando..." shows while the next admin page loads', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/login-admin')
  await signInThroughProvider(page, { email: LOCAL_ADMIN_EMAIL, name: 'Ana' })
  await page.waitForURL((url) => url.pathname === '/admin')
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  // Hold the profile page's data a moment, as a slow connection would.
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/admin/perfil.data*', async (route) => {
    await held
    await route.continue()
  })
  await page.getByTestId('admin-menu').getByRole('link', { name: 'Perfil' }).click({ noWaitAfter: true })
  await page.getByRole('status').filter({ hasText: 'Cargando...' }).waitFor()
  release()
  await page.waitForURL((url) => url.pathname === '/admin/perfil')
  await expect.poll(() => page.getByText('Cargando...').count()).toBe(0)
  await page.close()
})
