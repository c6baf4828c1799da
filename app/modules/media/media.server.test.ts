import { describe, expect, test, vi } from 'vitest'
import { hugePixelPng, memoryStorage, MP4_BYTES, pngUpload, WEBM_BYTES } from '#tests/media.ts'
import sharp from 'sharp'
import { imageSource, shareImage } from './image-source.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { MediaStorage } from './storage.server.ts'
import {
  checkUpload,
  IMAGE_WORK_CONCURRENCY,
  storeImage,
  storeUploads,
  checkUploads,
} from './media.server.ts'
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_VIDEO_BYTES,
  sniffVideo,
  UPLOAD_MESSAGES,
} from './validators.ts'

describe('uploads are checked by content', () => {
  test('a real PNG is an image whatever its name', async () => {
    const png = await pngUpload('sin-extension')
    expect(await checkUpload(png)).toEqual({ kind: 'image' })
  })

  test('a text file renamed .jpg is refused', async () => {
    const fake = { name: 'collar.jpg', bytes: Buffer.from('esto no es una imagen, es texto plano\n') }
    await expect(checkUpload(fake)).rejects.toThrow(new Refusal(UPLOAD_MESSAGES.notMedia('collar.jpg')))
  })

  test('a truncated image is refused', async () => {
    const png = await pngUpload()
    const broken = { name: 'rota.png', bytes: png.bytes.subarray(0, 40) }
    await expect(checkUpload(broken)).rejects.toThrow(UPLOAD_MESSAGES.notMedia('rota.png'))
  })

  test('an empty file is refused', async () => {
    await expect(checkUpload({ name: 'vacio.png', bytes: Buffer.alloc(0) })).rejects.toThrow(
      UPLOAD_MESSAGES.empty('vacio.png'),
    )
  })

  test('an AVIF photo is an image, not an mp4 (same container, image brand)', async () => {
    const sharp = (await import('sharp')).default
    const avif = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#c98f6b' } })
      .avif()
      .toBuffer()
    expect(sniffVideo(avif)).toBeNull()
    expect(await checkUpload({ name: 'foto.avif', bytes: avif })).toEqual({ kind: 'image' })
    const disguised = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from('ftypavif'),
      Buffer.from('<html>'),
    ])
    expect(sniffVideo(disguised)).toBeNull()
  })

  test('mp4, webm and ogg are videos by their magic bytes', () => {
    expect(sniffVideo(MP4_BYTES)?.mimeType).toBe('video/mp4')
    expect(sniffVideo(WEBM_BYTES)?.mimeType).toBe('video/webm')
    expect(sniffVideo(Buffer.from('OggS\0\x02rest'))?.mimeType).toBe('video/ogg')
    expect(sniffVideo(Buffer.from('GIF89a'))).toBeNull()
  })

  test('an image over 10 MB is refused, a video over 50 MB too', async () => {
    const bigImage = { name: 'grande.png', bytes: Buffer.alloc(MAX_IMAGE_BYTES + 1, 0x89) }
    await expect(checkUpload(bigImage)).rejects.toThrow(UPLOAD_MESSAGES.imageTooLarge('grande.png'))
    const bigVideo = {
      name: 'grande.mp4',
      bytes: Buffer.concat([MP4_BYTES, Buffer.alloc(MAX_VIDEO_BYTES)]),
    }
    await expect(checkUpload(bigVideo)).rejects.toThrow(UPLOAD_MESSAGES.videoTooLarge('grande.mp4'))
    const video = { name: 'ok.mp4', bytes: Buffer.concat([MP4_BYTES, Buffer.alloc(MAX_IMAGE_BYTES + 10)]) }
    expect((await checkUpload(video)).kind).toBe('video')
  })
})

describe('storing uploads', () => {
  test('images become WebP variants, videos keep their bytes under a content-derived extension', async () => {
    const storage = memoryStorage()
    const uploads = [await pngUpload('a.png', '#111111', 700, 500), { name: 'v.bin', bytes: WEBM_BYTES }]
    const stored = await storeUploads(storage, uploads, await checkUploads(uploads), 'products', {
      share: true,
    })
    expect(stored[0]!.kind).toBe('image')
    const webp = stored[0]!.variants.filter((v) => v.path.endsWith('.webp'))
    expect(webp.map((v) => v.width)).toEqual([320, 640, 700])
    expect(stored[1]).toMatchObject({ kind: 'video', mimeType: 'video/webm' })
    expect(stored[1]!.path).toMatch(/^products\/.+\.webm$/)
    // Three WebP variants and the link-preview JPEG of the image, and the video.
    expect(storage.files.size).toBe(5)
    expect(storage.files.get(stored[0]!.path)!.contentType).toBe('image/webp')
  })

  test('other images (categories, banners) get no link-preview JPEG', async () => {
    const storage = memoryStorage()
    const uploads = [await pngUpload('c.png', '#333333', 700, 500)]
    const [stored] = await storeUploads(storage, uploads, await checkUploads(uploads), 'categories')
    expect(stored!.variants.map((v) => v.path).filter((p) => p.endsWith('.jpg'))).toEqual([])
    expect([...storage.files.keys()].filter((p) => p.endsWith('.jpg'))).toEqual([])
  })

  test('a product image also gets a 1200×630 JPEG for link previews, kept out of srcset', async () => {
    const storage = memoryStorage()
    const uploads = [await pngUpload('a.png', '#111111', 700, 500)]
    const [stored] = await storeUploads(storage, uploads, await checkUploads(uploads), 'products', {
      share: true,
    })
    const share = stored!.variants.find((v) => v.path.endsWith('-share.jpg'))!
    expect(share).toMatchObject({ width: 1200, height: 630 })
    const file = storage.files.get(share.path)!
    expect(file.contentType).toBe('image/jpeg')
    const meta = await sharp(file.body).metadata()
    expect(meta).toMatchObject({ format: 'jpeg', width: 1200, height: 630 })

    expect(shareImage(stored!, '/media/')).toEqual({
      src: `/media/${share.path}`,
      width: 1200,
      height: 630,
      type: 'image/jpeg',
    })
    const source = imageSource(stored!, 'Collar', '/media/')
    expect(source.srcSet).not.toContain('.jpg')
    expect(source.width).toBe(700)
    expect(shareImage({ variants: [{ width: 640, height: 640, path: 'p-640.webp' }] }, '/media/')).toBeNull()
  })

  test('a storage failure midway deletes what was written', async () => {
    const storage = memoryStorage()
    storage.state.failPutsAfter = 4
    const uploads = [
      await pngUpload('a.png', '#111111', 700, 500),
      await pngUpload('b.png', '#222222', 700, 500),
    ]
    await expect(storeUploads(storage, uploads, await checkUploads(uploads), 'products')).rejects.toThrow(
      'almacenamiento lleno',
    )
    expect(storage.files.size).toBe(0)
  })
})

describe('images are bounded before they are decoded', () => {
  test('a small file declaring 16383 × 16383 pixels is refused from its header with a Spanish message', async () => {
    const bytes = hugePixelPng()
    expect(bytes.length).toBeLessThan(MAX_IMAGE_BYTES)
    expect(16383 * 16383).toBeGreaterThan(MAX_IMAGE_PIXELS)
    const refusal = await checkUpload({ name: 'enorme.png', bytes }).catch((thrown: unknown) => thrown)
    expect(refusal).toBeInstanceOf(Refusal)
    expect((refusal as Refusal).message).toBe(UPLOAD_MESSAGES.tooManyPixels('enorme.png', 16383, 16383))
    expect((refusal as Refusal).message).toMatch(
      /^La imagen «enorme.png» mide 16383 × 16383 píxeles y el máximo es de 50 megapíxeles/,
    )
  })

  test('in a batch, nothing is written when one image is too big', async () => {
    const storage = memoryStorage()
    const uploads = [await pngUpload('bien.png'), { name: 'enorme.png', bytes: hugePixelPng() }]
    await expect(checkUploads(uploads)).rejects.toThrow(
      UPLOAD_MESSAGES.tooManyPixels('enorme.png', 16383, 16383),
    )
    expect(storage.files.size).toBe(0)
  })

  test('an image just under the limit still passes', async () => {
    await expect(checkUpload({ name: 'grande.png', bytes: hugePixelPng(10000, 5000) })).resolves.toEqual({
      kind: 'image',
    })
  })

  test('even called directly, the decoder refuses more pixels than the limit', async () => {
    await expect(storeImage(memoryStorage(), hugePixelPng(), 'products')).rejects.toThrow(/pixel limit/i)
  })

  test('each image is decoded on one libvips thread, so cores−1 decodes at once leave a core free', async () => {
    // libvips' own default is a thread per core (some builds start at one): loading the module sets it.
    sharp.concurrency(4)
    vi.resetModules()
    await import('./media.server.ts')
    expect(sharp.concurrency()).toBe(1)
  })

  test('a slow storage write holds no decoding turn: other images are decoded and checked meanwhile', async () => {
    const images = IMAGE_WORK_CONCURRENCY + 2
    const writing = new Set<string>()
    const waiting: (() => void)[] = []
    // Every write hangs until the test lets it go, as an S3 upload that stalls would.
    const stalled: MediaStorage = {
      put: (path) =>
        new Promise<void>((resolve) => {
          writing.add(path.split('-')[0]!)
          waiting.push(resolve)
        }),
      delete: async () => {},
    }
    const bytes = (await pngUpload('a.png', '#123456', 200, 100)).bytes
    const all = Promise.all(Array.from({ length: images }, () => storeImage(stalled, bytes, 'x')))
    // Every image got through its decoding to its writes, though no write has finished.
    await expect.poll(() => writing.size, { timeout: 20_000 }).toBe(images)
    await expect(checkUpload(await pngUpload('b.png'))).resolves.toEqual({ kind: 'image' })
    for (const done of waiting.splice(0)) done()
    const stored = await all
    expect(stored).toHaveLength(images)
  })
})
