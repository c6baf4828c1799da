import type * as S3 from '@aws-sdk/client-s3'
import type { MediaStorage } from './storage.server.ts'

export type S3Settings = {
  /** Any S3-compatible endpoint (MinIO, R2, Spaces…); unset means AWS itself. */
  endpoint?: string
  region: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
}

/**
 * Media in an S3-compatible bucket: one object per file, immutable (every upload gets a new key).
 * The SDK is loaded on first use, so a shop on local disk never pays for it at start-up.
 */
export function s3MediaStorage(settings: S3Settings): MediaStorage {
  let ready: Promise<{ client: S3.S3Client; sdk: typeof S3 }> | undefined
  const connect = () =>
    (ready ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: settings.endpoint,
        region: settings.region,
        // Path-style URLs work with every S3-compatible store (virtual hosts need DNS per bucket).
        forcePathStyle: Boolean(settings.endpoint),
        credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
        maxAttempts: 3,
        // Plain signed bodies (no aws-chunked trailers): every S3-compatible store accepts them.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    })))
  return {
    async put(storagePath, body, contentType) {
      const { client, sdk } = await connect()
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: settings.bucket,
          Key: storagePath,
          Body: body,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      )
    },
    async delete(storagePath) {
      const { client, sdk } = await connect()
      await client.send(new sdk.DeleteObjectCommand({ Bucket: settings.bucket, Key: storagePath }))
    },
    async close() {
      const opened = ready
      ready = undefined
      if (opened) (await opened).client.destroy()
    },
  }
}
