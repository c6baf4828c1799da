import { beforeAll, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { CATEGORY_MESSAGES } from '#app/modules/catalog/validators.ts'
import { UPLOAD_MESSAGES } from '#app/modules/media/validators.ts'
import { gotoHydrated, plain, screenshotAtBothWidths, setupBrowser } from './browser.ts'
import { acceptNextDialog, expectMessage, pngFile, signInAsAdmin } from './admin-session.ts'

const browser = setupBrowser()
const NAME = `Broches ${Date.now().toString(36)}`
const SHOTS = 'test-results/admin-categories'

const shoot = (page: Page, name: string) => screenshotAtBothWidths(page, `${SHOTS}/${name}`)

// Signed in once; every test's context starts with that session.
beforeAll(() => browser.startEachTestWith((page) => signInAsAdmin(page)))

test('the menu opens the category list; each category has an Editar button', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/admin')
  await page.getByTestId('admin-menu').getByRole('link', { name: 'Categorías' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/categorias')
  const items = page.getByTestId('category-item')
  await items.first().waitFor()
  expect(await items.count()).toBeGreaterThan(0)
  const first = items.first()
  const href = await first.getByRole('link', { name: /^Editar/ }).getAttribute('href')
  expect(href).toMatch(/^\/admin\/categorias\/editar\/Categoria_/)
  await page.close()
})

test('create: a blank name is refused; a trimmed name and an image create it', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/admin/categorias/crear')
  await page.getByLabel('Nombre').fill('   ')
  await page.getByRole('button', { name: 'Crear categoría' }).click()
  await expectMessage(page, CATEGORY_MESSAGES.nameRequired)
  expect(new URL(page.url()).pathname).toBe('/admin/categorias/crear')

  // A text file dressed up as a JPEG is refused by the server, which creates nothing.
  await page.getByLabel('Nombre').fill(NAME)
  await page.getByLabel(/^Imagen/).setInputFiles({
    name: 'falsa.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('esto es texto, no una imagen'),
  })
  await page.getByRole('button', { name: 'Crear categoría' }).click()
  await expectMessage(page, CATEGORY_MESSAGES.createFailed(UPLOAD_MESSAGES.notMedia('falsa.jpg')))

  await page.getByLabel('Nombre').fill(`  ${NAME}  `)
  await page.getByLabel(/^Imagen/).setInputFiles(await pngFile('tobillera.png', '#8e44ad'))
  await page.getByRole('button', { name: 'Crear categoría' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/categorias')
  await expectMessage(page, CATEGORY_MESSAGES.created)
  const created = page.getByTestId('category-item').filter({ hasText: NAME })
  expect(await created.count()).toBe(1)
  expect(plain(await created.getByTestId('category-name').textContent())).toBe(NAME)
  expect(await created.locator('img').getAttribute('src')).toMatch(/^\/media\/categories\//)

  // It is in the store's menu too.
  await gotoHydrated(page, '/')
  expect(await page.locator(`a:has-text("${NAME}")`).count()).toBeGreaterThan(0)
  await page.close()
})

test('edit: renames; a blank name is refused; an unknown id says so', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/admin/categorias')
  await page
    .getByTestId('category-item')
    .filter({ hasText: NAME })
    .getByRole('link', { name: /^Editar/ })
    .click()
  await page.waitForURL((url) => url.pathname.startsWith('/admin/categorias/editar/'))
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  expect(await page.getByLabel('Nombre').inputValue()).toBe(NAME)
  await page.getByLabel('Nombre').fill('')
  await page.getByRole('button', { name: 'Guardar cambios' }).click()
  await expectMessage(page, CATEGORY_MESSAGES.nameRequired)

  await page.getByLabel('Nombre').fill(`${NAME} finas`)
  await page.getByRole('button', { name: 'Guardar cambios' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/categorias')
  await expectMessage(page, CATEGORY_MESSAGES.updated)
  expect(
    await page
      .getByTestId('category-item')
      .filter({ hasText: `${NAME} finas` })
      .count(),
  ).toBe(1)

  await gotoHydrated(page, '/admin/categorias/editar/Categoria_0')
  await expectMessage(page, CATEGORY_MESSAGES.notFound)
  await page.close()
})

test('delete: a category with products is refused, saying how many; an empty one asks, then goes', async () => {
  const page = await browser.page()
  // A demo category has products: refused, and it stays.
  await gotoHydrated(page, '/admin/categorias')
  const items = page.getByTestId('category-item')
  const full = items
    .filter({ has: page.getByTestId('category-products').getByText(/^\d+ productos?$/) })
    .first()
  const fullName = plain(await full.getByTestId('category-name').textContent())
  const products = Number(/^(\d+)/.exec(plain(await full.getByTestId('category-products').textContent()))![1])
  let asked = acceptNextDialog(page)
  await full.getByRole('button', { name: /^Eliminar/ }).click()
  expect(await asked).toBe(`¿Estás seguro de que quieres eliminar la categoría «${fullName}»?`)
  const noun =
    products === 1
      ? '1 producto. Muévelo primero a otra categoría (o quítalo'
      : `${products} productos. Muévelos primero a otra categoría (o quítalos`
  await expectMessage(
    page,
    `No se puede eliminar la categoría «${fullName}»: tiene ${noun} de esta) y vuelve a intentarlo.`,
  )
  expect(await items.filter({ hasText: fullName }).count()).toBeGreaterThan(0)
  await shoot(page, 'refused')

  // A new, empty category: "Eliminar" asks first; declined, nothing happens.
  const name = `Borrable ${Date.now().toString(36)}`
  await gotoHydrated(page, '/admin/categorias/crear')
  await page.getByLabel('Nombre').fill(name)
  await page.getByLabel(/^Imagen/).setInputFiles(await pngFile('borrable.png', '#c0392b'))
  await page.getByRole('button', { name: 'Crear categoría' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/categorias')
  await expectMessage(page, CATEGORY_MESSAGES.created)
  const created = items.filter({ hasText: name })
  expect(plain(await created.getByTestId('category-products').textContent())).toBe('Sin productos')
  await shoot(page, 'list')
  page.once('dialog', (dialog) => void dialog.dismiss())
  await created.getByRole('button', { name: `Eliminar ${name}` }).click()
  expect(await created.count()).toBe(1)

  asked = acceptNextDialog(page)
  await created.getByRole('button', { name: `Eliminar ${name}` }).click()
  expect(await asked).toBe(`¿Estás seguro de que quieres eliminar la categoría «${name}»?`)
  await expectMessage(page, `Categoría «${name}» eliminada con éxito.`)
  // The notice of the creation leaves the address with the delete (once the navigation commits).
  await page.waitForURL((url) => url.pathname === '/admin/categorias' && url.search === '')
  await created.waitFor({ state: 'detached' })
  expect(await created.count()).toBe(0)
  await shoot(page, 'deleted')

  // Gone from the store's menu too.
  await gotoHydrated(page, '/')
  expect(await page.locator(`a:has-text("${name}")`).count()).toBe(0)
  await page.close()
})
