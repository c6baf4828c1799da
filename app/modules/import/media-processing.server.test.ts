import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { getProductDetail } from '#app/modules/catalog/catalog.server.ts'
import { media, missingMedia } from '#app/modules/catalog/schema.ts'
import type * as MediaModule from '#app/modules/media/media.server.ts'
import { INTERNAL_ADDRESS_REASON, remoteFiles } from '#app/modules/media/remote-file.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { memoryStorage, MP4_BYTES, pngUpload } from '#tests/media.ts'
import { listen, type RecordedRequest } from '#tests/stand-ins/http.ts'
import { importOriginalShop, MISSING_FILE_OUTCOME } from './import.server.ts'

/** The image library fails on one file that passed the check, as sharp can on an odd encoding. */
const FAILING = 'b1_perla.jpg'
vi.mock('#app/modules/media/media.server.ts', async (importOriginal) => {
  const original = await importOriginal<typeof MediaModule>()
  return {
    ...original,
    storeUploads: (...args: Parameters<typeof original.storeUploads>) =>
      args[1].some((upload) => upload.name === FAILING)
        ? Promise.reject(new Error('VipsForeignSaveWebp: unable to encode'))
        : original.storeUploads(...args),
  }
})

const t = setupTestDatabase()
const SAMPLE = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/import/sample-export.json'), 'utf8'),
) as Record<string, unknown>
const LUNA = 'COL-CAT-7K2M9QXA'
const PERLA = 'ARE-CAT-P4D8W1ZE'
const FIREBASE = 'https://firebasestorage.googleapis.com/v0/b/tienda.appspot.com/o/productos%2F'

type SampleProduct = { sku: string; imageUrls: string[]; mainImageUrl: string }
type SampleMovements = { movimientos: { sku?: string }[] }
/**
 * One product of the sample under a new SKU (each test imports into the same database), with
 * other files; its ledger comes along, the other products' do not.
 */
function sampleWith(sku: string, as: string, urls: string[]) {
  const source = structuredClone(SAMPLE) as Record<string, unknown>
  const block = source['productos/productos_bloque_1'] as { productos: SampleProduct[] }
  const product = block.productos.find((candidate) => candidate.sku === sku)!
  Object.assign(product, { sku: as, imageUrls: urls, mainImageUrl: urls[0] })
  block.productos = [product]
  const movements = source[`movimientos/${sku}`] as SampleMovements | undefined
  for (const key of Object.keys(source)) if (key.startsWith('movimientos/')) delete source[key]
  if (movements) {
    for (const movement of movements.movimientos) movement.sku = as
    source[`movimientos/${as}`] = movements
  }
  return source
}

let png: Buffer
beforeAll(async () => {
  png = (await pngUpload()).bytes
})

test('a file that passes the check but cannot be processed is left out of the shop and listed; the rest comes over', async () => {
  const remote = {
    download: async (url: string) => ({ ok: true as const, bytes: url.includes('.mp4') ? MP4_BYTES : png }),
  }
  const storage = memoryStorage()
  const report = await importOriginalShop({ db: t.db, storage, remote }, SAMPLE)
  const url = `${FIREBASE}b1_perla.jpg?alt=media`
  expect(report.refused).toEqual([])
  expect(report.warnings).toEqual([
    {
      kind: 'producto',
      key: PERLA,
      reason: `No se pudo traer ${url} (la imagen no se pudo procesar: VipsForeignSaveWebp: unable to encode): ${MISSING_FILE_OUTCOME}`,
    },
  ])
  expect(report.imported).toMatchObject({ products: 2, mediaFiles: 3, mediaStored: 2, mediaMissing: 1 })
  expect(await t.db.$count(media, eq(media.productSku, PERLA))).toBe(0)
  expect(await t.db.select().from(missingMedia).where(eq(missingMedia.productSku, PERLA))).toMatchObject([
    { url, kind: 'image', reason: 'la imagen no se pudo procesar: VipsForeignSaveWebp: unable to encode' },
  ])
  const stored = await t.db.select().from(media).where(eq(media.productSku, LUNA))
  expect(stored.every((row) => storage.files.has(row.path))).toBe(true)
})

describe('files that cannot be brought', () => {
  const internalRequests: RecordedRequest[] = []
  let internal: { origin: string; close: () => Promise<void> }
  beforeAll(async () => {
    internal = await listen(internalRequests, (_request, response) => response.end(png))
  })
  afterAll(() => internal.close())

  test('an export naming this machine is refused before any connection; no address, password or port reaches the shop or the report', async () => {
    const port = new URL(internal.origin).port
    const urls = [
      `http://127.0.0.1:${port}/admin/foto.png`,
      `http://ana:secreta@2130706433:${port}/foto.png`,
      `http://0x7f.1:${port}/foto.png`,
      `http://[::ffff:127.0.0.1]:${port}/foto.png`,
      `http://localhost:${port}/foto.png`,
    ]
    const source = sampleWith(LUNA, 'COL-CAT-INTERNAS1', urls)
    // The real client, as `npm run import` builds it: nothing here is let through.
    const report = await importOriginalShop(
      { db: t.db, storage: memoryStorage(), remote: remoteFiles({ timeoutMs: 2_000 }) },
      source,
    )
    expect(internalRequests).toEqual([])
    expect(report.imported).toMatchObject({ products: 1, mediaFiles: 5, mediaStored: 0, mediaMissing: 5 })
    const shown = [
      `http://127.0.0.1:${port}/admin/foto.png`,
      // As the export wrote them; only one with a password is rewritten, without it.
      `http://127.0.0.1:${port}/foto.png`,
      `http://0x7f.1:${port}/foto.png`,
      `http://[::ffff:127.0.0.1]:${port}/foto.png`,
      `http://localhost:${port}/foto.png`,
    ]
    expect(report.warnings).toEqual(
      shown.map((url) => ({
        kind: 'producto',
        key: 'COL-CAT-INTERNAS1',
        reason: `No se pudo traer ${url} (${INTERNAL_ADDRESS_REASON}): ${MISSING_FILE_OUTCOME}`,
      })),
    )
    expect(JSON.stringify(report)).not.toContain('secreta')
    const rows = await t.db
      .select()
      .from(missingMedia)
      .where(eq(missingMedia.productSku, 'COL-CAT-INTERNAS1'))
    expect(rows.map((row) => [row.url, row.reason, row.position])).toEqual(
      shown.map((url, position) => [url, INTERNAL_ADDRESS_REASON, position]),
    )
    expect(await t.db.$count(media, eq(media.productSku, 'COL-CAT-INTERNAS1'))).toBe(0)
    const page = await getProductDetail(t.reads, 'COL-CAT-INTERNAS1')
    expect(page).toMatchObject({ media: [], image: null, shareImage: null })
    expect(JSON.stringify(page)).not.toContain(port)
  })

  test('when the main file is missing, the first image that came is the main one', async () => {
    const urls = [
      `${FIREBASE}falta.jpg`,
      `${FIREBASE}video.mp4`,
      `${FIREBASE}segunda.jpg`,
      `${FIREBASE}tercera.jpg`,
    ]
    const remote = {
      download: async (url: string) =>
        url.includes('falta')
          ? { ok: false as const, reason: 'el servidor respondió HTTP 404' }
          : { ok: true as const, bytes: url.includes('.mp4') ? MP4_BYTES : png },
    }
    const source = sampleWith(PERLA, 'ARE-CAT-PRINCIPAL', urls)
    const report = await importOriginalShop({ db: t.db, storage: memoryStorage(), remote }, source)
    expect(report.imported).toMatchObject({ mediaFiles: 4, mediaStored: 3, mediaMissing: 1 })
    const rows = await t.db
      .select()
      .from(media)
      .where(eq(media.productSku, 'ARE-CAT-PRINCIPAL'))
      .orderBy(media.position)
    expect(rows.map((row) => [row.kind, row.position, row.isMain])).toEqual([
      ['video', 0, false],
      ['image', 1, true],
      ['image', 2, false],
    ])
    expect(
      await t.db.select().from(missingMedia).where(eq(missingMedia.productSku, 'ARE-CAT-PRINCIPAL')),
    ).toMatchObject([{ url: urls[0], position: 0 }])
  })

  test('an address whose user part is no valid escape, or a download that throws, leaves that file out; the rest comes over', async () => {
    const malformed = 'http://a%zz:x@fotos.example.com/f.jpg'
    const real = remoteFiles({ timeoutMs: 2_000 })
    const remote = {
      download: async (url: string) => {
        if (url === malformed) return real.download(url)
        if (url.includes('explota')) throw new URIError('URI malformed')
        return { ok: true as const, bytes: png }
      },
    }
    const urls = [`${FIREBASE}buena.jpg`, malformed, `${FIREBASE}explota.jpg`]
    const source = sampleWith(LUNA, 'COL-CAT-MALFORMADA', urls)
    try {
      const report = await importOriginalShop({ db: t.db, storage: memoryStorage(), remote }, source)
      expect(report.imported).toMatchObject({ products: 1, mediaFiles: 3, mediaStored: 1, mediaMissing: 2 })
      expect(report.warnings.map((warning) => warning.reason)).toEqual([
        `No se pudo traer http://fotos.example.com/f.jpg (la dirección no es válida): ${MISSING_FILE_OUTCOME}`,
        `No se pudo traer ${FIREBASE}explota.jpg (no se pudo traer por un error inesperado: URI malformed): ${MISSING_FILE_OUTCOME}`,
      ])
      expect(await t.db.$count(media, eq(media.productSku, 'COL-CAT-MALFORMADA'))).toBe(1)
      expect(await t.db.$count(missingMedia, eq(missingMedia.productSku, 'COL-CAT-MALFORMADA'))).toBe(2)
    } finally {
      await real.close?.()
    }
  })

  test('a dry run downloads nothing and counts the files a run would download', async () => {
    const asked: string[] = []
    const remote = {
      download: async (url: string) => {
        asked.push(url)
        return { ok: true as const, bytes: png }
      },
    }
    const source = sampleWith(LUNA, 'COL-CAT-SIMULADO', [`${FIREBASE}una.jpg`, `${FIREBASE}dos.jpg`])
    const report = await importOriginalShop({ db: t.db, storage: memoryStorage(), remote }, source, {
      dryRun: true,
    })
    expect(asked).toEqual([])
    expect(report.imported).toMatchObject({ mediaFiles: 2, mediaStored: 0, mediaMissing: 0 })
    expect(await t.db.$count(missingMedia, eq(missingMedia.productSku, 'COL-CAT-SIMULADO'))).toBe(0)
  })
})
