import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import pg from 'pg'

/**
 * One connection to a shop's database, without migrating it: a backup must not change what it
 * copies, and a restore brings an empty database to the backup's own migration level.
 */
export type Connection = {
  kind: 'pglite' | 'postgres'
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>
  /** Several statements without parameters. */
  exec(text: string): Promise<void>
  close(): Promise<void>
}

export type ConnectionTarget = { url: string } | { directory: string }

/** Refusals the commands print as they are: Spanish, for the shop's owner. */
export class BackupError extends Error {
  override name = 'BackupError'
}

/** Text output fixed on both engines, so every value is written and read back the same way. */
const SESSION_SETTINGS =
  "set datestyle = 'ISO, YMD'; set timezone = 'UTC'; set intervalstyle = 'postgres'; set extra_float_digits = 3"

export function describeTarget(target: ConnectionTarget): string {
  if ('directory' in target) return `PGlite en ${target.directory}`
  const url = new URL(target.url)
  return `PostgreSQL (${url.host}${url.pathname})`
}

/**
 * PGlite runs inside one process and does not stop a second one from opening the same directory
 * (both would write and corrupt it); it leaves postmaster.pid while open, which we respect.
 */
export function assertPgliteFree(directory: string) {
  if (fs.existsSync(path.join(directory, 'postmaster.pid'))) {
    throw new BackupError(
      `La base de datos embebida en ${directory} está en uso: la tienda (npm start) u otro proceso la tiene abierta. ` +
        'PGlite admite un solo proceso a la vez: detén la tienda y vuelve a intentarlo. ' +
        '(Si la tienda se cerró de golpe, iníciala y detenla una vez para liberarla.)',
    )
  }
}

export function isPgliteDirectory(directory: string): boolean {
  return fs.existsSync(path.join(directory, 'PG_VERSION'))
}

export async function openConnection(target: ConnectionTarget): Promise<Connection> {
  const connection = 'url' in target ? await openPostgres(target.url) : await openPglite(target.directory)
  await connection.exec(SESSION_SETTINGS)
  return connection
}

async function openPglite(directory: string): Promise<Connection> {
  assertPgliteFree(directory)
  fs.mkdirSync(directory, { recursive: true })
  const client = new PGlite({ dataDir: directory, extensions: { pg_trgm } })
  await client.waitReady
  return {
    kind: 'pglite',
    query: async <T>(text: string, values?: unknown[]) => (await client.query<T>(text, values)).rows,
    exec: async (text) => {
      await client.exec(text)
    },
    close: () => client.close(),
  }
}

async function openPostgres(url: string): Promise<Connection> {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
  } catch (error) {
    throw new BackupError(
      `No se pudo conectar a ${describeTarget({ url })}: ${error instanceof Error ? error.message : error}`,
    )
  }
  // A dropped connection must fail the running step, not crash the process.
  client.on('error', () => {})
  return {
    kind: 'postgres',
    query: async <T>(text: string, values?: unknown[]) =>
      (await client.query(text, values as unknown[])).rows as T[],
    exec: async (text) => {
      await client.query(text)
    },
    close: () => client.end(),
  }
}
