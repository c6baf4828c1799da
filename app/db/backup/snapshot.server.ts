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
export type TableDump = {
  name: string
  columns: string[]
  rows: number
  file: string
  /** Bytes of the file (backups written before it was added have none). */
  size?: number
  sha256: string
}
export type SequenceDump = { name: string; lastValue: string | null }
export type DatabaseDump = { migrations: MigrationEntry[]; tables: TableDump[]; sequences: SequenceDump[] }

const FETCH_ROWS = 1000
const INSERT_ROWS = 500
const INSERT_BYTES = 4 * 1024 * 1024
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** A name or value from a backup inside a message: control characters masked, long ones cut. */
export function shown(text: string, max = 120): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?')
  return clean.length > max ? `${clean.slice(0, max)}…` : clean
}

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
  let size = 0
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
      size += Buffer.byteLength(chunk)
      yield chunk
    }
  }
  // pipeline waits for the disk (backpressure) and turns a write error into this step's failure.
  await pipeline(lines, fs.createWriteStream(path.join(directory, file)))
  await connection.exec('close backup_rows')
  return {
    name,
    columns: columns.map((column) => column.name),
    rows,
    file,
    size,
    sha256: hash.digest('hex'),
  }
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

/** What PostgreSQL (`pg`'s DatabaseError) and PGlite throw for a refused statement. */
type DatabaseError = Error & {
  code: string
  severity?: string
  column?: string
  constraint?: string
}

function isDatabaseError(error: unknown): error is DatabaseError {
  if (!(error instanceof Error) || !('severity' in error)) return false
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)
}

/** A database refusal nothing more precise explains: a Spanish lead first, the engine's words after. */
function unexpected(error: unknown): BackupError {
  if (error instanceof BackupError) return error
  return new BackupError(
    'La base de datos no aceptó la copia y quedó como estaba. ' +
      `Detalle técnico: ${error instanceof Error ? error.message : String(error)}`,
  )
}

/**
 * Brings an empty (or, with `wipe`, emptied) database to the dump's migration level and inserts every row, then sets the
 * sequences, all in one transaction: on any failure the target is left as it was. Every failure is a
 * BackupError in Spanish: a refused row names its table, line and column.
 */
export async function loadDatabase(
  connection: Connection,
  directory: string,
  dump: DatabaseDump,
  options: { wipe?: boolean } = {},
) {
  try {
    await loadInTransaction(connection, directory, dump, options)
  } catch (error) {
    throw unexpected(error)
  }
  // Planner statistics for the new rows now, not when autovacuum gets to them (PGlite has none);
  // only statistics, so a failure here does not undo a finished restore.
  await connection.exec('analyze').catch(() => {})
}

async function loadInTransaction(
  connection: Connection,
  directory: string,
  dump: DatabaseDump,
  options: { wipe?: boolean },
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
      try {
        await connection.query(`select setval($1::regclass, $2::bigint, true)`, [
          `public.${quote(sequence.name)}`,
          sequence.lastValue,
        ])
      } catch (error) {
        throw sequenceRefusal(sequence, error)
      }
    }
    await connection.exec('commit')
  } catch (error) {
    await connection.exec('rollback').catch(() => {})
    throw error
  }
}

function sequenceRefusal(sequence: SequenceDump, error: unknown): BackupError {
  if (!isDatabaseError(error)) return unexpected(error)
  const name = shown(sequence.name)
  if (error.code === '42P01') {
    return new BackupError(
      `La secuencia ${name} de la copia no existe en esta versión de Vitrina: no se restauró nada.`,
    )
  }
  if (error.code === '42809') {
    return new BackupError(
      `${name}, que la copia trae como secuencia, no es una secuencia en esta versión de Vitrina: no se restauró nada.`,
    )
  }
  if (error.code.startsWith('22')) {
    return new BackupError(
      `La secuencia ${name} de la copia tiene un valor que no es válido (${shown(sequence.lastValue ?? '')}): no se restauró nada.`,
    )
  }
  return new BackupError(
    `No se pudo fijar la secuencia ${name} de la copia: no se restauró nada. Detalle técnico: ${error.message}`,
  )
}

type TableColumn = { name: string; type: string }
type Line = { text: string; number: number }
/** How a message names a row: as the subject ("la fila 3 …") or as the place ("en la fila 3 …,"). */
type RowWords = { subject: string; place: string }

/** A column type in plain words, as the value it should hold: "no es <esto>". */
function typeInWords(type: string): string {
  if (type.endsWith('[]')) return 'una lista válida'
  if (/^(integer|bigint|smallint)$/.test(type)) return 'un número entero'
  if (/^(numeric|real|double precision)/.test(type)) return 'un número'
  if (type.startsWith('timestamp')) return 'una fecha y hora válida'
  if (type === 'date') return 'una fecha válida'
  if (type.startsWith('time')) return 'una hora válida'
  if (type.startsWith('interval')) return 'una duración válida'
  if (type === 'boolean') return 'verdadero o falso (true o false)'
  if (type === 'json' || type === 'jsonb') return 'JSON válido'
  if (type === 'uuid') return 'un identificador UUID válido'
  if (type === 'bytea') return 'un valor binario válido'
  if (/^(text|character)/.test(type)) return 'un texto válido'
  return `un valor válido del tipo ${type}`
}

/** A line must be what dumpTable writes: a JSON array of one text (or null) per column. */
function checkLine(line: Line, columns: TableColumn[], where: RowWords) {
  let values: unknown
  try {
    values = JSON.parse(line.text)
  } catch {
    throw new BackupError(`${where.subject} no es JSON válido.`)
  }
  if (!Array.isArray(values)) {
    throw new BackupError(`${where.subject} no es una lista de ${columns.length} valores.`)
  }
  if (values.length !== columns.length) {
    throw new BackupError(
      `${where.subject} tiene ${values.length} ${values.length === 1 ? 'valor' : 'valores'} y la tabla tiene ${columns.length} columnas.`,
    )
  }
  values.forEach((value, index) => {
    if (value !== null && typeof value !== 'string') {
      throw new BackupError(
        `${where.place} el valor de la columna ${columns[index]!.name} no es un texto ni null ` +
          `(${shown(JSON.stringify(value), 40)}).`,
      )
    }
  })
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
  const where = (line: Line): RowWords => {
    const lead = `La tabla ${table.name} de la copia no se puede cargar:`
    const row = `la fila ${line.number} de ${table.file}`
    return { subject: `${lead} ${row}`, place: `${lead} en ${row},` }
  }
  const insertLines = (lines: Line[]) =>
    connection.query(insert, [`[${lines.map((line) => line.text).join(',')}]`])

  /** One row in its own savepoint: refused, it is undone alone and explained. */
  const insertLine = async (line: Line) => {
    await connection.exec('savepoint restore_row')
    try {
      await insertLines([line])
    } catch (error) {
      if (!isDatabaseError(error)) throw error
      await connection.exec('rollback to savepoint restore_row')
      throw await rowRefusal(connection, table, columns, line, error, where(line))
    }
    await connection.exec('release savepoint restore_row')
  }

  let batch: Line[] = []
  let bytes = 0
  let rows = 0
  const flush = async () => {
    if (!batch.length) return
    // Many rows per statement for speed; when one is refused, the batch is undone and its rows are
    // inserted one by one to find which (and why).
    await connection.exec('savepoint restore_batch')
    try {
      await insertLines(batch)
    } catch (error) {
      if (!isDatabaseError(error)) throw error
      await connection.exec('rollback to savepoint restore_batch')
      for (const line of batch) await insertLine(line)
    }
    await connection.exec('release savepoint restore_batch')
    rows += batch.length
    batch = []
    bytes = 0
  }
  const lines = readline.createInterface({
    input: fs.createReadStream(path.join(directory, table.file)),
    crlfDelay: Infinity,
  })
  let number = 0
  for await (const text of lines) {
    number++
    if (!text) continue
    const line = { text, number }
    checkLine(line, columns, where(line))
    batch.push(line)
    bytes += text.length
    if (batch.length >= INSERT_ROWS || bytes >= INSERT_BYTES) await flush()
  }
  await flush()
  if (rows !== table.rows) {
    throw new BackupError(
      `La tabla ${table.name} de la copia tiene ${rows} filas y se esperaban ${table.rows}.`,
    )
  }
}

/** Column names of a constraint or unique index, in its order (none for an expression index). */
async function constraintColumns(connection: Connection, table: string, constraint: string) {
  const rows = await connection.query<{ name: string }>(
    `select a.attname as name from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join lateral unnest(x.indkey::int2[]) with ordinality as k(attnum, position) on true
       join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
      where i.relname = $1 and x.indrelid = $2::regclass
      order by k.position`,
    [constraint, `public.${quote(table)}`],
  )
  return rows.map((row) => row.name)
}

async function foreignKey(connection: Connection, table: string, constraint: string) {
  const [row] = await connection.query<{ parent: string; columns: string }>(
    `select p.relname as parent,
            (select string_agg(a.attname, ',' order by k.position)
               from unnest(c.conkey) with ordinality as k(attnum, position)
               join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum) as columns
       from pg_constraint c join pg_class p on p.oid = c.confrelid
      where c.conname = $1 and c.conrelid = $2::regclass and c.contype = 'f'`,
    [constraint, `public.${quote(table)}`],
  )
  return row ? { parent: row.parent, columns: row.columns ? row.columns.split(',') : [] } : null
}

/** Why PostgreSQL refused one row, in the owner's words: which row, which column, what is wrong. */
async function rowRefusal(
  connection: Connection,
  table: TableDump,
  columns: TableColumn[],
  line: Line,
  error: DatabaseError,
  where: RowWords,
): Promise<BackupError> {
  const values = JSON.parse(line.text) as (string | null)[]
  const valueOf = (name: string) => {
    const value = values[columns.findIndex((column) => column.name === name)]
    return value === null || value === undefined ? 'null' : `"${shown(value, 40)}"`
  }
  const describe = (names: string[]) =>
    names.length === 1
      ? `la columna ${names[0]} (${valueOf(names[0]!)})`
      : `las columnas ${names.join(', ')} (${names.map(valueOf).join(', ')})`
  const lookup = async <T>(find: () => Promise<T>): Promise<T | null> => {
    await connection.exec('savepoint restore_lookup')
    try {
      const found = await find()
      await connection.exec('release savepoint restore_lookup')
      return found
    } catch {
      await connection.exec('rollback to savepoint restore_lookup')
      return null
    }
  }

  if (error.code.startsWith('22')) {
    // A value that is not of its column's type: cast each alone, as the insert does, to name it.
    for (const [index, column] of columns.entries()) {
      if (values[index] === null) continue
      await connection.exec('savepoint restore_value')
      try {
        // The value alone: PostgreSQL refuses a whole JSON document for one bad escape anywhere in it.
        await connection.query(`select ($1::json->>0)::${column.type} as value`, [
          JSON.stringify([values[index]]),
        ])
        await connection.exec('release savepoint restore_value')
      } catch (cast) {
        await connection.exec('rollback to savepoint restore_value')
        if (!isDatabaseError(cast) || !cast.code.startsWith('22')) throw unexpected(cast)
        const value = `"${shown(values[index]!, 40)}"`
        const why = ['22021', '22P05', '22P06'].includes(cast.code)
          ? 'que contiene un carácter que la base de datos no admite (como el carácter nulo)'
          : cast.code === '22003'
            ? `que está fuera del rango que admite la columna (${typeInWords(column.type)})`
            : `que no es ${typeInWords(column.type)}`
        return new BackupError(`${where.place} la columna ${column.name} tiene ${value}, ${why}.`)
      }
    }
    return new BackupError(
      `${where.subject} tiene un valor que la base de datos no admite. Detalle técnico: ${error.message}`,
    )
  }
  if (error.code === '23502') {
    return new BackupError(
      `${where.place} la columna ${error.column ?? '(desconocida)'} está vacía (null) y es obligatoria.`,
    )
  }
  if (error.code === '23505') {
    const names = error.constraint
      ? await lookup(() => constraintColumns(connection, table.name, error.constraint!))
      : null
    return new BackupError(
      names?.length
        ? names.length === 1
          ? `${where.subject} repite el valor de ${describe(names)} de otra fila, y debe ser único.`
          : `${where.subject} repite los valores de ${describe(names)} de otra fila, y juntos deben ser únicos.`
        : `${where.subject} repite un valor de otra fila que debe ser único (${error.constraint ?? 'índice único'}).`,
    )
  }
  if (error.code === '23503') {
    const key = error.constraint
      ? await lookup(() => foreignKey(connection, table.name, error.constraint!))
      : null
    return new BackupError(
      key
        ? `${where.place} ${describe(key.columns)} se refiere a una fila de la tabla ${key.parent} que no está en la copia.`
        : `${where.subject} se refiere a una fila de otra tabla que no está en la copia (${error.constraint ?? 'clave foránea'}).`,
    )
  }
  if (error.code === '23514') {
    return new BackupError(
      `${where.subject} no cumple la regla ${error.constraint ?? '(sin nombre)'} de la tabla.`,
    )
  }
  if (error.code.startsWith('23')) {
    return new BackupError(
      `${where.subject} no cumple una regla de la base de datos (${error.constraint ?? error.code}).`,
    )
  }
  return new BackupError(
    `${where.subject} fue rechazada por la base de datos. Detalle técnico: ${error.message}`,
  )
}
