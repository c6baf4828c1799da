import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { pipeline } from 'node:stream/promises'
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator'
import { migrationsFolder } from '../client.server.ts'
import { BackupError, type Connection } from './connection.server.ts'

/** One applied migration, as drizzle records it (hash of the SQL file, the journal's `when`). */
export type MigrationEntry = { tag: string | null; hash: string; createdAt: number }
export type TableDump = { name: string; columns: string[]; rows: number; file: string; sha256: string }
export type SequenceDump = { name: string; lastValue: string | null }
export type DatabaseDump = { migrations: MigrationEntry[]; tables: TableDump[]; sequences: SequenceDump[] }

const FETCH_ROWS = 1000
const INSERT_ROWS = 500
const INSERT_BYTES = 4 * 1024 * 1024
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

type LocalMigration = MigrationMeta & { tag: string | null }

/** The migrations this copy of Vitrina ships, in order, with their journal tags. */
export function localMigrations(): LocalMigration[] {
  const folder = migrationsFolder()
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[]
  }
  const tags = new Map(journal.entries.map((entry) => [entry.when, entry.tag]))
  return readMigrationFiles({ migrationsFolder: folder }).map((migration) => ({
    ...migration,
    tag: tags.get(migration.folderMillis) ?? null,
  }))
}

async function appliedMigrations(connection: Connection): Promise<MigrationEntry[] | null> {
  const [table] = await connection.query<{ present: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  )
  if (!table?.present) return null
  const rows = await connection.query<{ hash: string; created_at: string }>(
    'select hash, created_at::text from drizzle.__drizzle_migrations order by created_at',
  )
  const tags = new Map(localMigrations().map((m) => [m.folderMillis, m.tag]))
  return rows.map((row) => ({
    tag: tags.get(Number(row.created_at)) ?? null,
    hash: row.hash,
    createdAt: Number(row.created_at),
  }))
}

async function publicTables(connection: Connection): Promise<string[]> {
  const rows = await connection.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
  )
  return rows.map((row) => row.name)
}

/** Stored columns in table order (generated columns are computed again on insert). */
async function tableColumns(connection: Connection, table: string) {
  return connection.query<{ name: string; type: string }>(
    `select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
      where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
      order by attnum`,
    [`public.${quote(table)}`],
  )
}

/**
 * Writes every table of the public schema as JSON lines (one array of the columns' text forms per
 * row: PostgreSQL's own output, so bigint, jsonb, bytea and timestamps come back exactly, and a
 * jsonb `null` stays apart from SQL NULL), reading through a cursor inside one repeatable-read
 * transaction: a consistent snapshot without holding a big table in memory.
 */
export async function dumpDatabase(connection: Connection, directory: string): Promise<DatabaseDump> {
  const migrations = await appliedMigrations(connection)
  if (!migrations?.length) {
    throw new BackupError(
      'La base de datos de origen no tiene ninguna tienda (no hay migraciones aplicadas): no hay nada que copiar.',
    )
  }
  fs.mkdirSync(path.join(directory, 'tables'), { recursive: true })
  await connection.exec('begin isolation level repeatable read read only')
  try {
    const tables: TableDump[] = []
    for (const name of await publicTables(connection)) {
      tables.push(await dumpTable(connection, directory, name))
    }
    const sequences = await connection.query<SequenceDump>(
      `select sequencename as name, last_value::text as "lastValue" from pg_sequences
        where schemaname = 'public' order by sequencename`,
    )
    await connection.exec('commit')
    return { migrations, tables, sequences }
  } catch (error) {
    await connection.exec('rollback').catch(() => {})
    throw error
  }
}

async function dumpTable(connection: Connection, directory: string, name: string): Promise<TableDump> {
  const columns = await tableColumns(connection, name)
  const file = `tables/${name}.jsonl`
  const hash = createHash('sha256')
  let rows = 0
  const list = columns.map((column) => `${quote(column.name)}::text`).join(', ')
  await connection.exec(
    `declare backup_rows no scroll cursor for select json_build_array(${list})::text as line from public.${quote(name)}`,
  )
  async function* lines() {
    for (;;) {
      const batch = await connection.query<{ line: string }>(`fetch forward ${FETCH_ROWS} from backup_rows`)
      if (!batch.length) return
      const chunk = batch.map((row) => `${row.line}\n`).join('')
      hash.update(chunk)
      rows += batch.length
      yield chunk
    }
  }
  // pipeline waits for the disk (backpressure) and turns a write error into this step's failure.
  await pipeline(lines, fs.createWriteStream(path.join(directory, file)))
  await connection.exec('close backup_rows')
  return { name, columns: columns.map((column) => column.name), rows, file, sha256: hash.digest('hex') }
}

/** What the target holds: its migration level and whether any public table has a row. */
export async function describeDatabase(connection: Connection) {
  const migrations = (await appliedMigrations(connection)) ?? []
  const tables = await publicTables(connection)
  const withRows: string[] = []
  for (const name of tables) {
    const [row] = await connection.query<{ any: boolean }>(
      `select exists (select from public.${quote(name)}) as any`,
    )
    if (row?.any) withRows.push(name)
  }
  return { migrations, tables, withRows }
}

/**
 * The backup's migrations must be the first ones this Vitrina ships, unchanged: the restore
 * rebuilds the schema from them. Returns how many to apply.
 */
export function migrationLevel(migrations: MigrationEntry[]): number {
  const local = localMigrations()
  migrations.forEach((entry, index) => {
    const known = local[index]
    if (!known || known.folderMillis !== entry.createdAt) {
      throw new BackupError(
        `La copia viene de una versión de Vitrina más nueva o distinta (migración ${entry.tag ?? entry.createdAt} desconocida): ` +
          'actualiza Vitrina a esa versión o una posterior antes de restaurarla.',
      )
    }
    if (known.hash !== entry.hash) {
      throw new BackupError(
        `La migración ${known.tag ?? known.folderMillis} de la copia no coincide con la de esta versión de Vitrina.`,
      )
    }
  })
  return migrations.length
}

/** Drizzle's migrator, run inside our transaction so a failed restore leaves no schema behind. */
async function migrateTo(connection: Connection, level: number, already: number) {
  await connection.exec(`create schema if not exists drizzle;
    create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`)
  for (const migration of localMigrations().slice(already, level)) {
    for (const statement of migration.sql) if (statement.trim()) await connection.exec(statement)
    await connection.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [
      migration.hash,
      migration.folderMillis,
    ])
  }
}

/** Parents before children, so every foreign key finds its row. */
async function insertionOrder(connection: Connection, tables: string[]): Promise<string[]> {
  const edges = await connection.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent from pg_constraint k
       join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and k.connamespace = 'public'::regnamespace and k.conrelid <> k.confrelid`,
  )
  const ordered: string[] = []
  const done = new Set<string>()
  const visit = (table: string, path: string[]) => {
    if (done.has(table)) return
    if (path.includes(table)) throw new BackupError(`Las tablas ${path.join(', ')} se refieren en círculo.`)
    for (const edge of edges) if (edge.child === table) visit(edge.parent, [...path, table])
    done.add(table)
    ordered.push(table)
  }
  for (const table of [...tables].sort()) visit(table, [])
  return ordered.filter((table) => tables.includes(table))
}

/**
 * Brings an empty (or, with `wipe`, emptied) database to the dump's migration level and inserts every row, then sets the
 * sequences, all in one transaction: on any failure the target is left as it was.
 */
export async function loadDatabase(
  connection: Connection,
  directory: string,
  dump: DatabaseDump,
  options: { wipe?: boolean } = {},
) {
  const level = migrationLevel(dump.migrations)
  const before = await describeDatabase(connection)
  if (!options.wipe && (before.withRows.length || before.migrations.length > level)) {
    throw new BackupError('La base de datos de destino no está vacía.')
  }
  await connection.exec('begin')
  try {
    if (options.wipe) {
      // The shop's three schemas (pg-boss recreates its own on start); undone with the rest on failure.
      await connection.exec(`drop schema if exists drizzle cascade; drop schema if exists pgboss cascade;
        drop schema public cascade; create schema public`)
    }
    await migrateTo(connection, level, options.wipe ? 0 : before.migrations.length)
    const targetTables = await publicTables(connection)
    const byName = new Map(dump.tables.map((table) => [table.name, table]))
    const missing = targetTables.filter((name) => !byName.has(name))
    const extra = dump.tables.filter((table) => !targetTables.includes(table.name)).map((t) => t.name)
    if (missing.length || extra.length) {
      throw new BackupError(
        `Las tablas de la copia no coinciden con el esquema (${[...missing, ...extra].join(', ')}).`,
      )
    }
    // The storefront's change counter is copied as it was, like every row: its triggers (migration
    // 0018) bump it once per transaction unless this transaction-local flag says that is done.
    await connection.exec(`select set_config('vitrina.storefront_bumped', 'yes', true)`)
    for (const name of await insertionOrder(connection, targetTables)) {
      await loadTable(connection, directory, byName.get(name)!)
    }
    for (const sequence of dump.sequences) {
      if (sequence.lastValue === null) continue
      await connection.query(`select setval($1::regclass, $2::bigint, true)`, [
        `public.${quote(sequence.name)}`,
        sequence.lastValue,
      ])
    }
    await connection.exec('commit')
  } catch (error) {
    await connection.exec('rollback').catch(() => {})
    throw error
  }
  // Planner statistics for the new rows now, not when autovacuum gets to them (PGlite has none).
  await connection.exec('analyze')
}

async function loadTable(connection: Connection, directory: string, table: TableDump) {
  const columns = await tableColumns(connection, table.name)
  const names = columns.map((column) => column.name)
  if (names.join(',') !== table.columns.join(',')) {
    throw new BackupError(`Las columnas de la tabla ${table.name} en la copia no coinciden con el esquema.`)
  }
  const casts = columns.map((column, index) => `(r->>${index})::${column.type}`).join(', ')
  const insert = `insert into public.${quote(table.name)} (${names.map(quote).join(', ')}) overriding system value
    select ${casts} from json_array_elements($1::json) as r`
  let batch: string[] = []
  let bytes = 0
  let rows = 0
  const flush = async () => {
    if (!batch.length) return
    await connection.query(insert, [`[${batch.join(',')}]`])
    rows += batch.length
    batch = []
    bytes = 0
  }
  const lines = readline.createInterface({
    input: fs.createReadStream(path.join(directory, table.file)),
    crlfDelay: Infinity,
  })
  for await (const line of lines) {
    if (!line) continue
    batch.push(line)
    bytes += line.length
    if (batch.length >= INSERT_ROWS || bytes >= INSERT_BYTES) await flush()
  }
  await flush()
  if (rows !== table.rows) {
    throw new BackupError(
      `La tabla ${table.name} de la copia tiene ${rows} filas y se esperaban ${table.rows}.`,
    )
  }
}
