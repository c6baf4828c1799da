import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { pngUpload } from '#tests/media.ts'
import { testServices } from '#tests/services.ts'
import { startS3StandIn, STAND_IN_S3 } from '#tests/stand-ins/s3.ts'
import { mediaSettingsFromEnv } from './config.server.ts'
import { imageSource, mediaUrl } from './image-source.ts'
import { checkUploads, storeUploads } from './media.server.ts'
import { s3MediaStorage } from './s3-storage.server.ts'

let s3: Awaited<ReturnType<typeof startS3StandIn>>
beforeAll(async () => {
  s3 = await startS3StandIn()
})
afterAll(async () => {
  await s3?.close()
})

const storage = () =>
  s3MediaStorage({
    endpoint: s3.endpoint,
    region: STAND_IN_S3.region,
    bucket: STAND_IN_S3.bucket,
    accessKeyId: STAND_IN_S3.accessKeyId,
    secretAccessKey: STAND_IN_S3.secretAccessKey,
  })

test('PutObject stores the bytes with type and immutable caching; DeleteObject removes them', async () => {
  const body = Buffer.from([0, 1, 2, 250, 251, 255])
  await storage().put('products/a b/ñ.webp', body, 'image/webp')
  const object = s3.objects.get('products/a b/ñ.webp')!
  expect(object.body.equals(body)).toBe(true)
  expect(object.contentType).toBe('image/webp')
  expect(object.cacheControl).toBe('public, max-age=31536000, immutable')
  expect(s3.requests.at(-1)).toMatchObject({
    method: 'PUT',
    path: `/${STAND_IN_S3.bucket}/products/a%20b/%C3%B1.webp`,
  })
  expect(s3.requests.at(-1)!.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIASTANDIN/)

  await storage().delete('products/a b/ñ.webp')
  expect(s3.objects.has('products/a b/ñ.webp')).toBe(false)
})

test('image variants go to the bucket through storeUploads', async () => {
  const uploads = [await pngUpload('foto.png', '#336699', 900, 600)]
  const [stored] = await storeUploads(storage(), uploads, await checkUploads(uploads), 'products')
  for (const variant of stored!.variants) expect(s3.objects.has(variant.path)).toBe(true)
})

test('a failing store surfaces as an error (after the SDK retries)', async () => {
  s3.state.failNext = 10
  await expect(storage().put('products/x.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow()
  s3.state.failNext = 0
  expect(s3.objects.has('products/x.webp')).toBe(false)
})

test('wrong credentials are refused by the store', async () => {
  const wrong = s3MediaStorage({
    endpoint: s3.endpoint,
    region: STAND_IN_S3.region,
    bucket: STAND_IN_S3.bucket,
    accessKeyId: 'AKIAOTRA000000000000',
    secretAccessKey: 'x',
  })
  await expect(wrong.put('products/y.webp', Buffer.from('y'), 'image/webp')).rejects.toThrow()
})

test('S3 settings from the environment: storage in the bucket, URLs under S3_PUBLIC_URL', async () => {
  const env = parseEnv({
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: STAND_IN_S3.region,
    S3_BUCKET: STAND_IN_S3.bucket,
    S3_ACCESS_KEY_ID: STAND_IN_S3.accessKeyId,
    S3_SECRET_ACCESS_KEY: STAND_IN_S3.secretAccessKey,
    S3_PUBLIC_URL: 'https://cdn.vitrina.test/media',
  })
  const settings = mediaSettingsFromEnv(env)
  expect(settings.kind).toBe('s3')
  expect(settings.publicBase).toBe('https://cdn.vitrina.test/media/')
  // The registry hands the reads this base; the URLs follow it.
  const { publicBase } = testServices({ media: settings }).reads
  await settings.storage.put('banners/z.webp', Buffer.from('z'), 'image/webp')
  expect(s3.objects.has('banners/z.webp')).toBe(true)
  expect(mediaUrl('products/p.webp', publicBase)).toBe('https://cdn.vitrina.test/media/products/p.webp')
  const source = imageSource(
    {
      kind: 'image',
      path: 'p-640.webp',
      width: 640,
      height: 640,
      variants: [{ width: 640, height: 640, path: 'p-640.webp' }],
    },
    'alt',
    publicBase,
  )
  expect(source.src).toBe('https://cdn.vitrina.test/media/p-640.webp')

  await settings.storage.close?.()
  expect(mediaUrl('products/p.webp', testServices().reads.publicBase)).toBe('/media/products/p.webp')
})

test('without S3_PUBLIC_URL the bucket URL on the endpoint is used', () => {
  const env = parseEnv({
    S3_ENDPOINT: 'https://minio.example.com/',
    S3_BUCKET: 'fotos',
    S3_ACCESS_KEY_ID: 'k',
    S3_SECRET_ACCESS_KEY: 's',
  })
  expect(mediaSettingsFromEnv(env).publicBase).toBe('https://minio.example.com/fotos/')
})
