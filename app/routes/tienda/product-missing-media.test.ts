import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { importOriginalShop } from '#app/modules/import/import.server.ts'
import type { Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { memoryStorage, MP4_BYTES, pngUpload } from '#tests/media.ts'
import { routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import { loader as sitemapLoader } from '../api/sitemap.ts'
import { loader, meta } from './product.tsx'

/**
 * Files an import could not bring never reach the shop's HTML: not the gallery, not og:image, not
 * the JSON-LD, not the sitemap. Their addresses may be internal or carry a password, and the
 * page's CSP would block them anyway.
 */

const t = setupTestDatabase()
let services: Services
const SAMPLE = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/import/sample-export.json'), 'utf8'),
) as Record<string, { productos?: { imageUrls: string[]; mainImageUrl: string }[] }>
const LUNA = 'COL-CAT-7K2M9QXA'
const HIDDEN = 'ana:secreta@fotos-privadas.example.com'

beforeAll(async () => {
  services = testServices({
    database: t.database,
    env: parseEnv({ PUBLIC_URL: 'https://tienda.example.co' }),
  })
  // Collar Luna (visible to shoppers): its main image cannot be had, its second one and the video come.
  const source = structuredClone(SAMPLE)
  const luna = source['productos/productos_bloque_1']!.productos![0]!
  const main = `https://${HIDDEN}/o/principal.jpg?alt=media`
  luna.imageUrls = [
    main,
    'https://firebasestorage.googleapis.com/v0/b/x/o/segunda.jpg',
    ...luna.imageUrls.slice(1),
  ]
  luna.mainImageUrl = main
  const png = (await pngUpload()).bytes
  const remote = {
    download: async (url: string) =>
      url.includes('fotos-privadas')
        ? { ok: false as const, reason: 'el servidor respondió HTTP 403' }
        : { ok: true as const, bytes: url.includes('.mp4') ? MP4_BYTES : png },
  }
  const report = await importOriginalShop({ db: t.db, storage: memoryStorage(), remote }, source)
  expect(report.imported).toMatchObject({ mediaStored: 3, mediaMissing: 1 })
})

test('the product page shows, previews and describes only the files stored here', async () => {
  const data = await loader({
    params: { sku: LUNA, slug: 'collar-luna' },
    url: new URL(`https://tienda.example.co/producto/${LUNA}/collar-luna`),
    context: routeContext(services),
  } as never)
  expect(data.product.media.map((item) => item.kind)).toEqual(['image', 'video'])
  const tags = meta({
    data,
    error: undefined,
    matches: [
      {
        id: 'routes/tienda/layout',
        data: { store: { storeName: 'Vitrina', publicUrl: 'https://tienda.example.co' } },
      },
    ],
  } as never)
  const ogImage = tags.find((tag) => 'property' in tag && tag.property === 'og:image') as { content: string }
  expect(ogImage.content).toMatch(/^https:\/\/tienda\.example\.co\/media\/products\/.*-share\.jpg$/)
  const jsonLd = JSON.parse(data.jsonLd) as { image: string[] }
  expect(jsonLd.image).toEqual([expect.stringMatching(/^https:\/\/tienda\.example\.co\/media\/products\//)])
  const everything = JSON.stringify([data, tags])
  expect(everything).not.toContain('fotos-privadas')
  expect(everything).not.toContain('secreta')
  expect(everything).not.toContain('firebasestorage')
})

test('the sitemap names pages, never the files', async () => {
  const body = await (await sitemapLoader({ context: routeContext(services) } as never)).text()
  expect(body).toContain(`/producto/${LUNA}`)
  expect(body).not.toContain('fotos-privadas')
  expect(body).not.toContain('firebasestorage')
})
