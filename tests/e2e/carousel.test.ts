import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { CAROUSEL_INTERVAL_MS } from '#app/components/carousel.tsx'
import { FRAME_WAIT_MS } from '#app/utils/defer-scripts.server.ts'
import { DESKTOP, gotoHydrated, setupBrowser } from './browser.ts'
import { VIDEO_BANNER } from './fixtures.ts'

const browser = setupBrowser()

/** The home banners: two demo images and the video fixture. */
const SLIDES = 3

function banners(page: Page) {
  const region = page.getByRole('region', { name: 'Promociones' })
  const track = region.getByTestId('carousel-track')
  return {
    region,
    track,
    /** The slide the track shows now. */
    shown: () => track.evaluate((element) => Math.round(element.scrollLeft / element.clientWidth)),
    /** The slide the track has come to rest on (no animation or drag in between). */
    settled: () =>
      track.evaluate(
        (element) =>
          new Promise<number>((resolve) => {
            const start = element.scrollLeft
            setTimeout(() => {
              const at = element.scrollLeft
              resolve(at === start && at % element.clientWidth === 0 ? at / element.clientWidth : -1)
            }, 100)
          }),
      ),
  }
}

test('"Siguiente" on the last slide wraps to the first; "Anterior" goes back, from the first to the last', async () => {
  const page = await browser.page(DESKTOP)
  await gotoHydrated(page, '/')
  const { region, settled } = banners(page)
  const next = region.getByRole('button', { name: 'Siguiente' })
  const previous = region.getByRole('button', { name: 'Anterior' })
  // Pointing at the carousel pauses the autoplay, so only the buttons move it.
  for (const expected of [1, 2, 0]) {
    await next.click()
    await expect.poll(settled).toBe(expected)
  }
  for (const expected of [2, 1, 0]) {
    await previous.click()
    await expect.poll(settled).toBe(expected)
  }
  await page.close()
})

test('dragging with the mouse changes the slide, a short drag does not', async () => {
  const page = await browser.page(DESKTOP)
  await gotoHydrated(page, '/')
  const { track, settled } = banners(page)
  const box = (await track.boundingBox())!
  const y = box.y + box.height / 2
  const drag = async (from: number, to: number) => {
    await page.mouse.move(from, y)
    await page.mouse.down()
    await page.mouse.move(to, y, { steps: 12 })
    await page.mouse.up()
  }
  // Right to left, 40 % of the width: the next slide.
  await drag(box.x + box.width * 0.7, box.x + box.width * 0.3)
  await expect.poll(settled).toBe(1)
  // A few pixels only: it settles back on the same slide.
  await drag(box.x + box.width * 0.5, box.x + box.width * 0.5 - 30)
  await expect.poll(settled).toBe(1)
  // Left to right: back to the first.
  await drag(box.x + box.width * 0.3, box.x + box.width * 0.7)
  await expect.poll(settled).toBe(0)
  await page.close()
})

test('a video banner plays muted and looping, without controls', async () => {
  const page = await browser.page(DESKTOP)
  await gotoHydrated(page, '/')
  const { region, settled } = banners(page)
  const video = region.locator('video')
  expect(await video.count()).toBe(1)
  const state = await video.evaluate((v: HTMLVideoElement) => ({
    autoplay: v.autoplay,
    loop: v.loop,
    muted: v.muted,
    controls: v.controls,
    playsInline: v.playsInline,
    src: v.getAttribute('src'),
  }))
  expect(state).toEqual({
    autoplay: true,
    loop: true,
    muted: true,
    controls: false,
    playsInline: true,
    src: `/media/${VIDEO_BANNER.path}`,
  })
  // Its slide is the third; once shown, it is playing.
  await region.getByRole('button', { name: 'Anterior' }).click()
  await expect.poll(settled).toBe(SLIDES - 1)
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0), { timeout: 10_000 })
    .toBe(true)
  await page.close()
})

test('banners move on by themselves every 5000 ms, the last back to the first', async () => {
  const page = await browser.page(DESKTOP)
  // A stopped clock: time moves only when the test says so.
  const start = new Date('2026-11-20T10:00:00-05:00')
  await page.clock.install({ time: start })
  await page.clock.pauseAt(new Date(start.getTime() + 1000))
  await page.goto('/')
  // The page's scripts start once it is drawn, or after FRAME_WAIT_MS: a stopped clock draws nothing.
  await page.clock.runFor(FRAME_WAIT_MS)
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.hydrated)).toBe('true')
  const { region, shown } = banners(page)
  expect(await region.locator('[aria-roledescription="diapositiva"]').count()).toBe(SLIDES)
  expect(CAROUSEL_INTERVAL_MS).toBe(5000)
  expect(await shown()).toBe(0)

  await page.clock.runFor(4900)
  expect(await shown()).toBe(0)
  // At 5000 ms it starts moving; the 500 ms animation brings it to the next slide.
  await page.clock.runFor(700)
  expect(await shown()).toBe(1)
  await page.clock.runFor(4300)
  expect(await shown()).toBe(1)
  await page.clock.runFor(1300)
  expect(await shown()).toBe(2)
  await page.clock.runFor(5000)
  expect(await shown()).toBe(0)
  await page.close()
})
