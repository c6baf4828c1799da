import { asc } from 'drizzle-orm'
import sharp from 'sharp'
import { expect, test } from 'vitest'
import { categories } from '#app/modules/catalog/schema.ts'
import { banners } from '#app/modules/settings/schema.ts'
import { categoryPath } from '#app/utils/paths.ts'
import { slugOf } from '#app/utils/slug.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { memoryStorage } from '#tests/media.ts'
import { DEMO_BANNER_DESKTOP, DEMO_BANNER_MOBILE, renderDemoBanner } from './demo-banners.server.ts'
import { seedDemoData } from './demo-data.server.ts'

const t = setupTestDatabase()

const picture = (color: string) =>
  sharp({ create: { width: 300, height: 300, channels: 3, background: color } })
    .png()
    .toBuffer()

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return {
    data,
    info,
    at: (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)],
  }
}

const CONTENT = {
  headline: 'Nueva colección',
  subline: 'Collares que brillan contigo',
  action: 'Ver collares',
  colors: ['#8a4b2e', '#f4d9c6'] as const,
}

test.each([DEMO_BANNER_DESKTOP, DEMO_BANNER_MOBILE])(
  'a %o banner carries its words and the product pictures',
  async (size) => {
    const products = [await picture('#00ff00'), await picture('#0000ff')]
    const banner = await pixels(await renderDemoBanner({ ...CONTENT, products }, size))
    expect([banner.info.width, banner.info.height]).toEqual([size.width, size.height])

    // The same banner without words: the difference is the text, and there is plenty of it.
    const blank = await pixels(
      await renderDemoBanner({ ...CONTENT, headline: '', subline: '', action: '', products }, size),
    )
    let changed = 0
    for (let i = 0; i < banner.data.length; i += 3) if (banner.data[i] !== blank.data[i]) changed++
    expect(changed).toBeGreaterThan(size.width * size.height * 0.01)

    // Both product colours show, whole tiles of them, not a placeholder shape.
    const count = (rgb: number[]) => {
      let n = 0
      for (let i = 0; i < banner.data.length; i += 3)
        if (banner.data[i] === rgb[0] && banner.data[i + 1] === rgb[1] && banner.data[i + 2] === rgb[2]) n++
      return n
    }
    expect(count([0, 255, 0])).toBeGreaterThan(size.width * size.height * 0.03)
    expect(count([0, 0, 255])).toBeGreaterThan(size.width * size.height * 0.03)
  },
)

test('the demo shop gets two picture banners, each linking to the category it shows', async () => {
  await seedDemoData(t.db, memoryStorage(), { products: 6 })
  const rows = await t.db.select().from(banners).orderBy(asc(banners.position))
  const shelves = await t.db.select().from(categories)
  expect(rows.map((row) => row.alt)).toEqual([
    'Nueva colección de collares',
    'Envío gratis por tiempo limitado',
  ])
  const links = shelves.map((category) => categoryPath({ id: category.id, slug: slugOf(category) }))
  for (const row of rows) {
    expect(row.mobileMediaId).not.toBeNull()
    expect(links).toContain(row.link)
  }
})
