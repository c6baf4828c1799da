import path from 'node:path'
import { BackupError, type ConnectionTarget } from '#app/db/backup/connection.server.ts'
import type { Env } from '#app/utils/env.server.ts'

/** Where the running shop keeps its data: the same choice the server makes at start-up. */
export function shopLocation(env: Env): { source: ConnectionTarget; mediaDirectory: string } {
  return {
    source: env.DATABASE_URL ? { url: env.DATABASE_URL } : { directory: path.join(env.dataDir, 'db') },
    mediaDirectory: path.join(env.dataDir, 'media'),
  }
}

/** Refusals are printed as written; anything else gets its message after a plain Spanish lead. */
export function failAndExit(error: unknown): never {
  if (error instanceof BackupError) console.error(error.message)
  else console.error(`No se pudo completar la operación: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
}
