import { describe, expect, test } from 'vitest'
import { gotoHydrated, setupBrowser, WIDTHS } from './browser.ts'
import { FIXTURES } from './fixtures.ts'
import { productPath } from '#app/utils/paths.ts'
import { slugify } from '#app/utils/slug.ts'

const browser = setupBrowser()

describe.each(WIDTHS)('search on a $name', ({ viewport }) => {
  test('the panel shows matches while typing, ignoring accents and case, and hides when cleared', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, '/')
    const box = page.getByRole('combobox', { name: 'Buscar productos' })
    const panel = page.getByTestId('search-results')
    expect(await panel.count()).toBe(0)

    await box.fill('CORAZON')
    await expect.poll(() => panel.isVisible()).toBe(true)
    const names = await panel.getByRole('link').allTextContents()
    expect(names.some((name) => name.includes(FIXTURES.discounted.name))).toBe(true)
    expect(names.some((name) => name.includes('Collar Corazón Dorado'))).toBe(true)
    for (const name of names) expect(name.toLowerCase()).toMatch(/corazón|corazon/)

    await box.fill('')
    await expect.poll(() => panel.count()).toBe(0)

    // Nothing matches: no panel at all.
    await box.fill('zzzxxyy')
    await page.waitForResponse((response) => response.url().includes('/api/buscar'))
    await expect.poll(() => panel.count()).toBe(0)
    await page.close()
  })

  test('hidden and sold-out products are never found', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, '/')
    const box = page.getByRole('combobox', { name: 'Buscar productos' })
    const panel = page.getByTestId('search-results')
    await box.fill('de prueba')
    await expect.poll(() => panel.isVisible()).toBe(true)
    const hrefs = await panel
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')))
    expect([...hrefs].sort()).toEqual(
      [FIXTURES.discounted, FIXTURES.single]
        .map(({ sku, name }) => productPath({ sku, slug: slugify(name) }))
        .sort(),
    )
    await page.close()
  })

  test('a mousedown outside the box and the list hides the panel', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, '/')
    const box = page.getByRole('combobox', { name: 'Buscar productos' })
    const panel = page.getByTestId('search-results')
    await box.fill('anillo')
    await expect.poll(() => panel.isVisible()).toBe(true)
    // A mousedown inside the list keeps it open.
    const first = panel.getByRole('link').first()
    const inside = await first.boundingBox()
    await page.mouse.move(inside!.x + 5, inside!.y + 5)
    await page.mouse.down()
    expect(await panel.isVisible()).toBe(true)
    await page.mouse.up()
    await page.waitForURL((url) => url.pathname.startsWith('/producto/'))
    expect(await panel.count()).toBe(0)

    await box.fill('aretes')
    await expect.poll(() => panel.isVisible()).toBe(true)
    // A click on plain footer text, far from both the box and the list (Playwright checks nothing
    // covers it), brings a mousedown outside.
    await page.getByRole('heading', { name: 'Derecho de retracto' }).click()
    await expect.poll(() => panel.count()).toBe(0)
    expect(await box.inputValue()).toBe('aretes')
    await page.close()
  })

  test('Enter submits to /buscar with the results', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, '/')
    const box = page.getByRole('combobox', { name: 'Buscar productos' })
    await box.fill('corazon')
    await box.press('Enter')
    await page.waitForURL((url) => url.pathname === '/buscar' && url.searchParams.get('q') === 'corazon')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Resultados para "corazon"')
    const skus = await page
      .getByTestId('product-card')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-sku')))
    expect(skus).toContain(FIXTURES.discounted.sku)
    expect(await page.getByTestId('search-results').count()).toBe(0)
    await page.close()
  })
})

test('typing more keeps the previous results on screen until the new answer arrives', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/')
  const box = page.getByRole('combobox', { name: 'Buscar productos' })
  const panel = page.getByTestId('search-results')
  await box.fill('collar')
  await expect.poll(() => panel.isVisible()).toBe(true)
  const before = await panel.getByRole('link').allTextContents()

  // From now on every answer takes a while; note if the panel ever leaves the page meanwhile.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(
    (url) => url.pathname.startsWith('/api/buscar'),
    async (route) => {
      await held
      await route.continue()
    },
  )
  await page.evaluate(() => {
    const state = window as unknown as { __panelGone: boolean }
    state.__panelGone = false
    new MutationObserver(() => {
      if (!document.querySelector('[data-testid="search-results"]')) state.__panelGone = true
    }).observe(document.body, { childList: true, subtree: true })
  })
  const requested = page.waitForRequest(
    (request) => new URL(request.url()).searchParams.get('q') === 'collar corazon',
  )
  await box.pressSequentially(' corazon', { delay: 40 })
  await requested
  // The answer is held: the earlier results are still there, marked busy.
  expect(await panel.isVisible()).toBe(true)
  expect(await panel.getByRole('link').allTextContents()).toEqual(before)
  expect(await panel.getAttribute('aria-busy')).toBe('true')

  release()
  await expect.poll(() => panel.getAttribute('aria-busy')).toBe('false')
  const after = await panel.getByRole('link').allTextContents()
  expect(after.length).toBeGreaterThan(0)
  for (const name of after) expect(name.toLowerCase()).toMatch(/collar.*coraz[oó]n/)
  expect(await page.evaluate(() => (window as unknown as { __panelGone: boolean }).__panelGone)).toBe(false)
  await page.close()
})
