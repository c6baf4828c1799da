import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { mediaSettingsFromEnv } from '#app/modules/media/config.server.ts'
import type { Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory } from '#tests/factories.ts'
import { pngUpload } from '#tests/media.ts'
import { testServices } from '#tests/services.ts'
import { startS3StandIn, STAND_IN_S3 } from '#tests/stand-ins/s3.ts'
import { createProduct, deleteProduct } from './admin-products.server.ts'
import { getProductDetail } from './catalog.server.ts'
import { products } from './schema.ts'
import { ProductFieldsSchema } from './validators.ts'

/** A product's whole life with media in an S3-compatible bucket (the local stand-in). */

const t = setupTestDatabase()
let services: Services
let s3: Awaited<ReturnType<typeof startS3StandIn>>
const PUBLIC = 'https://cdn.vitrina.test/media/'

beforeAll(async () => {
  s3 = await startS3StandIn()
  const media = mediaSettingsFromEnv(
    parseEnv({
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: STAND_IN_S3.region,
      S3_BUCKET: STAND_IN_S3.bucket,
      S3_ACCESS_KEY_ID: STAND_IN_S3.accessKeyId,
      S3_SECRET_ACCESS_KEY: STAND_IN_S3.secretAccessKey,
      S3_PUBLIC_URL: PUBLIC,
    }),
  )
  services = testServices({ database: t.database, media })
})
afterAll(async () => {
  await services.media.storage.close?.()
  await s3?.close()
})

test('create puts the variants in the bucket, the store links them under S3_PUBLIC_URL, delete removes them', async () => {
  const category = await createCategory(t.db)
  const fields = ProductFieldsSchema.parse({
    name: 'Anillo Nube',
    description: 'Plata',
    categoryIds: [category.id],
    level1: '20000',
    showRetail: 'on',
  })
  const { sku } = await createProduct(t.db, services.media.storage, {
    fields,
    uploads: [await pngUpload('a.png', '#123456', 800, 800)],
    mainIndex: 0,
  })
  expect(s3.objects.size).toBe(4) // 320, 640 and 800 px WebP, and the link-preview JPEG
  const detail = (await getProductDetail(services.reads, sku))!
  const slide = detail.media[0]!
  expect(slide.kind).toBe('image')
  if (slide.kind === 'image') {
    expect(slide.image.src.startsWith(`${PUBLIC}products/`)).toBe(true)
    for (const entry of slide.image.srcSet.split(', ')) expect(entry.startsWith(PUBLIC)).toBe(true)
  }
  await deleteProduct(t.db, services.media.storage, sku)
  expect(s3.objects.size).toBe(0)
})

test('a bucket that refuses writes leaves no product behind', async () => {
  const category = await createCategory(t.db)
  s3.state.failNext = 100
  const fields = ProductFieldsSchema.parse({
    name: 'Anillo Lluvia',
    description: 'Plata',
    categoryIds: [category.id],
  })
  await expect(
    createProduct(t.db, services.media.storage, { fields, uploads: [await pngUpload()], mainIndex: 0 }),
  ).rejects.toThrow()
  s3.state.failNext = 0
  expect(await t.db.select().from(products).where(eq(products.name, 'Anillo Lluvia'))).toEqual([])
  expect(s3.objects.size).toBe(0)
})

test('a bucket that fails in the middle of the images removes what it had taken, and no product is left', async () => {
  const category = await createCategory(t.db)
  s3.state.putsBeforeFailing = 2
  const fields = ProductFieldsSchema.parse({
    name: 'Anillo Niebla',
    description: 'Plata',
    categoryIds: [category.id],
  })
  try {
    await expect(
      createProduct(t.db, services.media.storage, {
        fields,
        uploads: [await pngUpload(), await pngUpload()],
        mainIndex: 0,
      }),
    ).rejects.toThrow()
  } finally {
    s3.state.putsBeforeFailing = null
  }
  // Two uploads went through before the failure.
  expect(s3.requests.filter((request) => request.method === 'PUT').length).toBeGreaterThan(2)
  expect(await t.db.select().from(products).where(eq(products.name, 'Anillo Niebla'))).toEqual([])
  expect(s3.objects.size).toBe(0)
})
