import path from 'node:path'
import type { Env } from '#app/utils/env.server.ts'
import { MEDIA_URL_PREFIX } from './image-source.ts'
import { s3MediaStorage } from './s3-storage.server.ts'
import { localMediaStorage, type MediaStorage } from './storage.server.ts'

export type MediaSettings = { storage: MediaStorage; publicBase: string; kind: 'local' | 's3' }

/** S3-compatible storage when S3_BUCKET and its keys are set; otherwise DATA_DIR/media served at /media/. */
export function mediaSettingsFromEnv(env: Env): MediaSettings {
  const base = s3PublicBase(env)
  if (base && env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY) {
    return {
      kind: 's3',
      storage: s3MediaStorage({
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        bucket: env.S3_BUCKET,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      }),
      publicBase: base,
    }
  }
  return {
    kind: 'local',
    storage: localMediaStorage(path.join(env.dataDir, 'media')),
    publicBase: MEDIA_URL_PREFIX,
  }
}

/** Where the media files' URLs start when they live in an S3 bucket (ending in `/`), else null. */
export function s3PublicBase(env: Env): string | null {
  if (!(env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY)) return null
  const base =
    env.S3_PUBLIC_URL ??
    `${(env.S3_ENDPOINT ?? `https://s3.${env.S3_REGION}.amazonaws.com`).replace(/\/$/, '')}/${env.S3_BUCKET}`
  return base.endsWith('/') ? base : `${base}/`
}
