import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { openDatabase, type Database } from '#app/db/client.server.ts'
import { MEDIA_URL_PREFIX, type MediaReads } from '#app/modules/media/image-source.ts'

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the PostgreSQL server at TEST_DATABASE_URL (dropped afterwards).
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) return openDatabase({})
  const name = `vitrina_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), poolSize: 20 })
  return {
    ...database,
    async close() {
      await database.close()
      const cleanup = new pg.Client({ connectionString: serverUrl })
      await cleanup.connect()
      await cleanup.query(`drop database if exists ${name} with (force)`)
      await cleanup.end()
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
