import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { asc, eq, sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { migrationsFolder, type Db } from '#app/db/client.server.ts'
import { checkUpload, storeUploads, type StoredMedia } from '#app/modules/media/media.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import { createScratchDatabase } from '../../../scripts/scratch-database.js'
import {
  getCartProducts,
  getProductDetail,
  listBestSellers,
  listCategoryProducts,
  listShuffledProducts,
  listSitemapEntries,
  searchProducts,
} from './catalog.server.ts'
import { insertImportedCatalogue, type ImportedMedia } from './import.server.ts'
import { dismissMissingMedia, listMissingMedia, summarizeMissingMedia } from './missing-media.server.ts'
import { PRODUCT_MEDIA_FOLDER } from './product-media.server.ts'
import { categories, media, missingMedia, products } from './schema.ts'

const t = setupTestDatabase()
const CATEGORY = 'Categoria_1735689600000'
const SECRET_HOST = 'fotos-privadas.example.com'
const missing = (url: string, main = false, kind: 'image' | 'video' = 'image'): ImportedMedia => ({
  missing: { url, kind, reason: 'el servidor respondió HTTP 404' },
  main,
})

/** Imports two products as the importer does: one with its main file missing, one with none brought. */
async function importProducts() {
  const upload = await pngUpload('collar.png')
  const [stored] = (await storeUploads(
    memoryStorage(),
    [upload],
    [await checkUpload(upload)],
    PRODUCT_MEDIA_FOLDER,
    {
      share: true,
    },
  )) as [StoredMedia]
  const product = (sku: string, name: string, files: ImportedMedia[]) => ({
    sku,
    name,
    description: `Descripción de ${name}`,
    priceLevel1: 4_500_000,
    priceLevel2: 3_600_000,
    priceLevel3: 3_150_000,
    priceLevel4: 2_700_000,
    priceLevel5: 1_800_000,
    discountPercent: 0,
    purchaseLink: null,
    supplierInfo: null,
    showWholesale: false,
    showRetail: true,
    createdAt: new Date('2025-01-02T00:00:00Z'),
    categoryIds: [CATEGORY],
    media: files,
  })
  await t.db.transaction((tx) =>
    insertImportedCatalogue(tx, {
      categories: [{ id: CATEGORY, name: 'Collares', createdAt: new Date('2025-01-01T00:00:00Z') }],
      products: [
        product('COL-CAT-MEDIAFALTA', 'Collar Faltante', [
          missing(`https://ana:secreta@${SECRET_HOST}/o/principal.jpg?alt=media`, true),
          { stored, main: false },
          missing(`http://127.0.0.1:8080/o/video.mp4`, false, 'video'),
        ]),
        product('COL-CAT-SINMEDIA1', 'Collar Sin Fotos', [
          missing(`https://${SECRET_HOST}/o/unica.jpg`, true),
        ]),
      ],
    }),
  )
  // Visible to shoppers: stock and units out, as the ledger replay would leave them.
  await t.db.update(products).set({ stock: 5, unitsOut: 3 })
  return stored
}

describe('imported files that could not be brought', () => {
  let stored: StoredMedia
  beforeAll(async () => {
    stored = await importProducts()
  })

  test('are never media rows: they are listed apart, without credentials, in their original order', async () => {
    const rows = await t.db.select().from(media).where(eq(media.productSku, 'COL-CAT-MEDIAFALTA'))
    // The main file is missing: the image that came is the main one now.
    expect(rows.map((row) => [row.path, row.position, row.isMain])).toEqual([[stored.path, 0, true]])
    expect(await t.db.$count(media, eq(media.productSku, 'COL-CAT-SINMEDIA1'))).toBe(0)
    expect(await listMissingMedia(t.db, 'COL-CAT-MEDIAFALTA')).toEqual([
      {
        id: expect.any(Number),
        kind: 'image',
        url: `https://${SECRET_HOST}/o/principal.jpg?alt=media`,
        reason: 'el servidor respondió HTTP 404',
      },
      {
        id: expect.any(Number),
        kind: 'video',
        url: 'http://127.0.0.1:8080/o/video.mp4',
        reason: expect.any(String),
      },
    ])
    const all = JSON.stringify(await t.db.select().from(missingMedia))
    expect(all).not.toContain('secreta')
  })

  test('no storefront read hands out their addresses: product page, og:image, cards, lists, cart, sitemap', async () => {
    const reads = t.reads
    const detail = await getProductDetail(reads, 'COL-CAT-MEDIAFALTA')
    expect(detail!.media).toEqual([
      { kind: 'image', image: expect.objectContaining({ src: expect.stringMatching(/^\/media\//) }) },
    ])
    expect(detail!.shareImage!.src).toMatch(/^\/media\/.*-share\.jpg$/)
    expect(detail!.image!.src).toMatch(/^\/media\//)
    const bare = await getProductDetail(reads, 'COL-CAT-SINMEDIA1')
    expect(bare).toMatchObject({ media: [], image: null, shareImage: null })
    const everything = JSON.stringify([
      detail,
      bare,
      await listBestSellers(reads, 10),
      await searchProducts(reads, 'collar'),
      await listCategoryProducts(reads, CATEGORY, 0, 10),
      await getCartProducts(reads, ['COL-CAT-MEDIAFALTA', 'COL-CAT-SINMEDIA1']),
      await listShuffledProducts(reads, { seed: 7 }, 10),
      await listSitemapEntries(t.db),
    ])
    expect(everything).toContain('COL-CAT-SINMEDIA1')
    expect(everything).not.toContain(SECRET_HOST)
    expect(everything).not.toContain('127.0.0.1')
    expect(everything).not.toMatch(/https?:\/\//)
  })

  test('the inventory counts them, and a file the owner has handled leaves the list', async () => {
    expect(await summarizeMissingMedia(t.db)).toEqual({
      products: 2,
      files: 3,
      first: [
        { sku: 'COL-CAT-MEDIAFALTA', name: 'Collar Faltante', files: 2 },
        { sku: 'COL-CAT-SINMEDIA1', name: 'Collar Sin Fotos', files: 1 },
      ],
    })
    const [first] = await listMissingMedia(t.db, 'COL-CAT-MEDIAFALTA')
    // Another product's SKU does not reach it.
    await dismissMissingMedia(t.db, 'COL-CAT-SINMEDIA1', first!.id)
    expect(await listMissingMedia(t.db, 'COL-CAT-MEDIAFALTA')).toHaveLength(2)
    await dismissMissingMedia(t.db, 'COL-CAT-MEDIAFALTA', first!.id)
    await dismissMissingMedia(t.db, 'COL-CAT-MEDIAFALTA', first!.id)
    expect(await listMissingMedia(t.db, 'COL-CAT-MEDIAFALTA')).toHaveLength(1)
    expect(await summarizeMissingMedia(t.db)).toMatchObject({ products: 2, files: 2 })
    expect(await listMissingMedia(t.db, 'A\u0000B')).toEqual([])
  })
})

/**
 * The migration that brought `missing_media` also moves what earlier imports left: media rows
 * whose path is an outside address. Run from the migration before it, on both engines.
 */
describe('migration 0020 on a shop imported before it', () => {
  const MIGRATION = '0020_missing_media'
  let folderBefore: string
  let close: () => Promise<void> = async () => {}
  let migrateAll: () => Promise<void>
  let db: Db

  beforeAll(async () => {
    const folder = migrationsFolder()
    folderBefore = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-migrations-'))
    fs.cpSync(folder, folderBefore, { recursive: true })
    const journalPath = path.join(folderBefore, 'meta', '_journal.json')
    const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
    const at = journal.entries.findIndex((entry) => entry.tag === MIGRATION)
    expect(at).toBeGreaterThan(0)
    journal.entries = journal.entries.slice(0, at)
    fs.writeFileSync(journalPath, JSON.stringify(journal))
    if (process.env.TEST_DATABASE_URL) {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL, 'vitrina_test')
      const pool = new pg.Pool({ connectionString: scratch.url, max: 2 })
      db = drizzlePg({ client: pool, casing: 'snake_case' }) as unknown as Db
      await migratePg(db as never, { migrationsFolder: folderBefore })
      migrateAll = () => migratePg(db as never, { migrationsFolder: folder })
      close = async () => {
        await pool.end()
        await scratch.drop()
      }
    } else {
      const client = new PGlite({ extensions: { pg_trgm } })
      db = drizzlePglite({ client, casing: 'snake_case' }) as unknown as Db
      await migratePglite(db as never, { migrationsFolder: folderBefore })
      migrateAll = () => migratePglite(db as never, { migrationsFolder: folder })
      close = () => client.close()
    }
  })
  afterAll(async () => {
    await close()
    fs.rmSync(folderBefore, { recursive: true, force: true })
  })

  test('outside addresses leave the media rows for missing_media, without credentials; a stored image becomes main', async () => {
    const insert = (sku: string) =>
      db.execute(
        sql`insert into products (sku, name, search_name) values (${sku}, ${sku}, ${sku.toLowerCase()})`,
      )
    await insert('COL-CAT-ANTIGUO01')
    await insert('COL-CAT-ANTIGUO02')
    await insert('COL-CAT-GUARDADO1')
    const row = (sku: string | null, filePath: string, position: number, isMain: boolean, kind = 'image') =>
      db.execute(
        sql`insert into media (product_sku, kind, path, mime_type, variants, position, is_main) values (${sku}, ${kind}, ${filePath}, 'image/*', '[]'::jsonb, ${position}, ${isMain})`,
      )
    await row('COL-CAT-ANTIGUO01', 'https://ana:se@creta@fotos.example.com/o/a.jpg?alt=media', 0, true)
    await row('COL-CAT-ANTIGUO01', 'products/guardada-1280.webp', 1, false)
    await row('COL-CAT-ANTIGUO01', 'HTTP://127.0.0.1:9/o/b.mp4', 2, false, 'video')
    await row('COL-CAT-ANTIGUO02', 'https://fotos.example.com/o/solo.jpg', 0, true)
    await row('COL-CAT-GUARDADO1', 'products/otra-1280.webp', 0, true)
    await row(null, 'banners/portada-1280.webp', 0, false)

    await migrateAll()

    const moved = await db
      .select({
        sku: missingMedia.productSku,
        url: missingMedia.url,
        kind: missingMedia.kind,
        reason: missingMedia.reason,
        position: missingMedia.position,
      })
      .from(missingMedia)
      .orderBy(asc(missingMedia.id))
    expect(moved).toEqual([
      {
        sku: 'COL-CAT-ANTIGUO01',
        url: 'https://fotos.example.com/o/a.jpg?alt=media',
        kind: 'image',
        reason: null,
        position: 0,
      },
      {
        sku: 'COL-CAT-ANTIGUO01',
        url: 'HTTP://127.0.0.1:9/o/b.mp4',
        kind: 'video',
        reason: null,
        position: 2,
      },
      {
        sku: 'COL-CAT-ANTIGUO02',
        url: 'https://fotos.example.com/o/solo.jpg',
        kind: 'image',
        reason: null,
        position: 0,
      },
    ])
    const left = await db
      .select({ sku: media.productSku, path: media.path, isMain: media.isMain })
      .from(media)
      .orderBy(asc(media.id))
    expect(left).toEqual([
      { sku: 'COL-CAT-ANTIGUO01', path: 'products/guardada-1280.webp', isMain: true },
      { sku: 'COL-CAT-GUARDADO1', path: 'products/otra-1280.webp', isMain: true },
      { sku: null, path: 'banners/portada-1280.webp', isMain: false },
    ])
    expect(await db.$count(categories)).toBe(0)
  })
})
