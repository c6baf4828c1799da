import { afterAll, beforeAll } from 'vitest'
import { openDatabase, type Database } from '#app/db/client.server.ts'
import { createScratchDatabase } from '../scripts/scratch-database.js'
import { MEDIA_URL_PREFIX, type MediaReads } from '#app/modules/media/image-source.ts'

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the PostgreSQL server at TEST_DATABASE_URL (dropped afterwards).
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) return openDatabase({})
  const scratch = await createScratchDatabase(serverUrl, 'vitrina_test')
  const database = await openDatabase({ url: scratch.url, poolSize: 20 })
  return {
    ...database,
    async close() {
      await database.close()
      await scratch.drop()
    },
  }
}

export const usingPostgres = () => Boolean(process.env.TEST_DATABASE_URL)

/** Opens a test database before the file's tests and closes it after them. */
export function setupTestDatabase() {
  const holder: { current: Database } = { current: undefined as unknown as Database }
  beforeAll(async () => {
    holder.current = await createTestDatabase()
  })
  afterAll(async () => {
    await holder.current?.close()
  })
  return {
    get db() {
      return holder.current.db
    },
    get database() {
      return holder.current
    },
    /** Reads that show images, with media on local disk (URLs under /media/). */
    get reads(): MediaReads {
      return { db: holder.current.db, publicBase: MEDIA_URL_PREFIX }
    },
  }
}
