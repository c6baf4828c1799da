import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { ExtractTablesWithRelations } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import * as schema from './schema.ts'
import { logger } from '#app/utils/logger.server.ts'

type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>
/** Domain functions take either the database or an open transaction. */
export type DbOrTx = Db | Tx

export type SqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>

export type Database = {
  db: Db
  kind: 'pglite' | 'postgres'
  /** Raw SQL on the shared connection(s), for pg-boss and maintenance. */
  executeSql: SqlExecutor
  /**
   * Runs `work` while no other process of the shop runs work under the same `lockId`: set-up that
   * several instances starting at once must not do side by side (a session advisory lock on
   * PostgreSQL; PGlite serves one process).
   */
  oneAtATime<T>(lockId: number, work: () => Promise<T>): Promise<T>
  close(): Promise<void>
}

export type DatabaseOptions =
  /** A PostgreSQL server. */
  | { url: string; poolSize?: number }
  /** Embedded PGlite in a directory, or in memory when `directory` is omitted. */
  | { directory?: string }

const MIGRATIONS_LOCK_ID = 7_402_113
/** Held while one instance sets up the job queue's schema and queues (see startJobQueue). */
export const JOB_QUEUE_SETUP_LOCK_ID = 7_402_114

export function migrationsFolder(): string {
  const candidates = [path.resolve('drizzle'), path.resolve(import.meta.dirname, '../../drizzle')]
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'meta', '_journal.json')))
  if (!found) throw new Error(`No se encontraron las migraciones (buscadas en ${candidates.join(', ')})`)
  return found
}

/** Opens the database and applies the committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) return openPostgres(options.url, options.poolSize ?? 10)
  return openPglite(options.directory)
}

async function openPglite(directory: string | undefined): Promise<Database> {
  if (directory) fs.mkdirSync(directory, { recursive: true })
  // pg_trgm backs the search index (migration 0001).
  const client = new PGlite({ dataDir: directory, extensions: { pg_trgm } })
  await client.waitReady
  const db = drizzlePglite({ client, schema, casing: 'snake_case' }) as unknown as Db
  await migratePglite(db as never, { migrationsFolder: migrationsFolder() })
  // PGlite has no autovacuum, so nothing else ever gathers planner statistics; without them the
  // planner guesses table sizes and picks whole-table plans for list pages (~0.1 s at 10k products).
  await client.exec('analyze')
  return {
    db,
    kind: 'pglite',
    executeSql: async (text, values) =>
      values?.length ? client.query(text, values) : { rows: lastRows(await client.exec(text)) },
    oneAtATime: (_lockId, work) => work(),
    close: () => client.close(),
  }
}

function lastRows(results: { rows: unknown[] }[]): unknown[] {
  return results.at(-1)?.rows ?? []
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max })
  // An idle connection the server drops (restart, failover, pool shutdown racing a forced drop)
  // surfaces here; without a listener Node treats it as an uncaught exception and the store dies.
  // The pool has already discarded that connection and opens a new one on the next query.
  pool.on('error', (error) => {
    if (!pool.ending) logger.error(`[db] conexión inactiva perdida: ${error.message}`)
  })
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Db
  const oneAtATime = async <T>(lockId: number, work: (client: pg.PoolClient) => Promise<T>) => {
    const lockClient = await pool.connect()
    try {
      await lockClient.query('select pg_advisory_lock($1)', [lockId])
      return await work(lockClient)
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [lockId]).catch(() => {})
      lockClient.release()
    }
  }
  // Several app instances may start at once: only one applies migrations.
  await oneAtATime(MIGRATIONS_LOCK_ID, (lockClient) =>
    migratePg(drizzlePg({ client: lockClient, schema, casing: 'snake_case' }), {
      migrationsFolder: migrationsFolder(),
    }),
  )
  return {
    db,
    kind: 'postgres',
    executeSql: (text, values) => pool.query(text, values as unknown[]),
    oneAtATime: (lockId, work) => oneAtATime(lockId, () => work()),
    close: () => pool.end(),
  }
}

/** The migrations this build carries (their journal's `when`), read on the first readiness probe. */
let buildMigrations: number[] | undefined
function migrationsOfThisBuild(): number[] {
  buildMigrations ??= (
    JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
      entries: { when: number }[]
    }
  ).entries.map((entry) => entry.when)
  return buildMigrations
}

/**
 * Ready to serve: the database answers and every migration this build carries is applied, so a new
 * instance waits for the migrations its code needs. Only this build's migrations are checked: an
 * instance of an older build on a database a newer one has moved further still reports ready.
 * The build's list is read once; each probe asks only the database.
 */
export async function isDatabaseReady(database: Pick<Database, 'executeSql'>): Promise<boolean> {
  const { rows } = await database.executeSql('select created_at from drizzle.__drizzle_migrations')
  const applied = new Set((rows as { created_at: string | number }[]).map((row) => Number(row.created_at)))
  return migrationsOfThisBuild().every((when) => applied.has(when))
}
