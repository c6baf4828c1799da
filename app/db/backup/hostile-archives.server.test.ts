import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import fc from 'fast-check'
import * as tar from 'tar'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openDatabase } from '#app/db/client.server.ts'
import { createScratchDatabase } from '../../../scripts/scratch-database.js'
import { createBackup, restoreBackup, type Manifest } from './archive.server.ts'
import { BackupError, openConnection, type Connection } from './connection.server.ts'
import { describeDatabase, loadDatabase } from './snapshot.server.ts'

/**
 * Issue 23: `npm run restore` on archives built to hurt — bombs, paths that leave the data
 * directory, links, lying sizes, rows PostgreSQL refuses — must refuse in Spanish, before writing
 * what it refuses, and leave nothing behind. The archives are put together here by hand (tar headers
 * encoded one by one), since `tar.create` will not write most of them.
 */

const serverUrl = process.env.TEST_DATABASE_URL
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-hostil-'))
let made = 0
const fresh = (name: string) => path.join(root, `${name}-${++made}`)
const MiB = 1024 * 1024
const GiB = 1024 * MiB

/** A backup taken apart: its manifest and each listed file's bytes, to be put together again. */
type Parts = { manifest: Manifest; files: Map<string, Buffer> }
let base: Parts

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex')
const countLines = (body: Buffer) =>
  body
    .toString('utf8')
    .split('\n')
    .filter((line) => line).length

beforeAll(async () => {
  const shop = fresh('tienda')
  const database = await openDatabase({ directory: path.join(shop, 'db') })
  try {
    await database.executeSql(`
      insert into settings (key, value) values ('shippingCost', '1200000'::jsonb);
      insert into page_views (month, page_name, visits, total_time_seconds) values ('2026-11', 'inicio', 3, 9)`)
  } finally {
    await database.close()
  }
  fs.mkdirSync(path.join(shop, 'media', 'products'), { recursive: true })
  fs.mkdirSync(path.join(shop, 'media', 'banners'), { recursive: true })
  fs.writeFileSync(path.join(shop, 'media', 'products', 'a.webp'), randomBytes(3000))
  fs.writeFileSync(path.join(shop, 'media', 'banners', 'b.webp'), randomBytes(700))
  const file = path.join(shop, 'copia.tar.gz')
  await createBackup({
    source: { directory: path.join(shop, 'db') },
    mediaDirectory: path.join(shop, 'media'),
    file,
    appVersion: 'test',
  })
  const unpacked = fresh('desarmada')
  fs.mkdirSync(unpacked)
  await tar.extract({ file, cwd: unpacked })
  const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as Manifest
  const files = new Map<string, Buffer>()
  for (const table of manifest.tables) files.set(table.file, fs.readFileSync(path.join(unpacked, table.file)))
  for (const media of manifest.media.files) {
    files.set(`media/${media.path}`, fs.readFileSync(path.join(unpacked, 'media', media.path)))
  }
  base = { manifest, files }
}, 120_000)

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

// ---------------------------------------------------------------------------------------------
// Putting archives together by hand

type EntryType = NonNullable<tar.HeaderData['type']>
type Entry = { path: string; type?: EntryType; body?: Buffer; size?: number; linkpath?: string }

/** One entry's header (a pax header first when the path does not fit), its body and padding. */
function encodeEntry(entry: Entry): Buffer {
  const body = entry.body ?? Buffer.alloc(0)
  const fields = {
    path: entry.path,
    type: entry.type ?? 'File',
    size: entry.size ?? body.length,
    mode: 0o644,
    mtime: new Date(0),
    linkpath: entry.linkpath,
  }
  const header = new tar.Header(fields)
  const needsPax = header.encode()
  const pad = Buffer.alloc((512 - (body.length % 512)) % 512)
  return Buffer.concat([...(needsPax ? [new tar.Pax(fields).encode()] : []), header.block!, body, pad])
}

const endOfArchive = Buffer.alloc(1024)
const pack = (entries: Entry[]) => zlib.gzipSync(Buffer.concat([...entries.map(encodeEntry), endOfArchive]))

/** The entries createBackup would write for `parts`: manifest first, then folders and files. */
function entriesOf(parts: Parts): Entry[] {
  const entries: Entry[] = [{ path: 'manifest.json', body: Buffer.from(JSON.stringify(parts.manifest)) }]
  const folders = new Set<string>()
  for (const [name, body] of parts.files) {
    const segments = name.split('/')
    for (let end = 1; end < segments.length; end++) {
      const folder = segments.slice(0, end).join('/')
      if (folders.has(folder)) continue
      folders.add(folder)
      entries.push({ path: `${folder}/`, type: 'Directory' })
    }
    entries.push({ path: name, body })
  }
  return entries
}

/** `parts` with the manifest's sizes, checksums and row counts matching its files again. */
function sealed(parts: Parts, options: { tableSizes?: boolean } = {}): Parts {
  const manifest = structuredClone(parts.manifest)
  for (const table of manifest.tables) {
    const body = parts.files.get(table.file)
    if (!body) continue
    table.sha256 = sha256(body)
    table.rows = countLines(body)
    if (options.tableSizes === false) delete table.size
    else table.size = body.length
  }
  for (const media of manifest.media.files) {
    const body = parts.files.get(`media/${media.path}`)
    if (!body) continue
    media.sha256 = sha256(body)
    media.size = body.length
  }
  return { manifest, files: parts.files }
}

/** The base backup with one table's lines added to (or replaced by) `lines`. */
function withLines(table: string, lines: string[], options: { replace?: boolean } = {}): Parts {
  const files = new Map(base.files)
  const file = `tables/${table}.jsonl`
  const before = options.replace ? '' : base.files.get(file)!.toString('utf8')
  files.set(file, Buffer.from(before + lines.map((line) => `${line}\n`).join('')))
  return sealed({ manifest: base.manifest, files })
}

/** A JSON line for `table` from its values by column name (the manifest's column order). */
function row(table: string, values: Record<string, string | null>): string {
  const columns = base.manifest.tables.find((t) => t.name === table)!.columns
  return JSON.stringify(
    columns.map((column) => {
      if (!(column in values)) throw new Error(`falta ${column} para ${table}`)
      return values[column]
    }),
  )
}

/**
 * A gzip bomb cheap to make: gzip members may follow one another, so `size` bytes of zeros are one
 * compressed MiB repeated. At gzip level 1 the ratio stays near 230:1, under tar's own 1000:1 guard,
 * like the 2.9 MB archive with 1 GiB inside that the probe found.
 */
function bomb(before: Entry[], inside: { path: string; size: number }, after: Entry[]): Buffer {
  const zeros = zlib.gzipSync(Buffer.alloc(MiB), { level: 1 })
  const members = [
    zlib.gzipSync(Buffer.concat([...before.map(encodeEntry), encodeEntry(inside).subarray(0, 512)])),
  ]
  for (let written = 0; written < inside.size; written += MiB) members.push(zeros)
  members.push(zlib.gzipSync(Buffer.concat([...after.map(encodeEntry), endOfArchive])))
  return Buffer.concat(members)
}

/** Every path under `directory`, with each file's size: what "nothing new" is compared against. */
function listing(directory: string): string[] {
  if (!fs.existsSync(directory)) return []
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name)
      const size = entry.isFile() ? ` ${fs.statSync(full).size}` : entry.isDirectory() ? '/' : ' ?'
      return `${path.relative(directory, full)}${size}`
    })
    .sort()
}

let archives = 0
const writeArchive = (bytes: Buffer) => {
  const file = path.join(root, `archivo-${++archives}.tar.gz`)
  fs.writeFileSync(file, bytes)
  return file
}

/** Technical words of Node, tar, zlib or PostgreSQL: never in what the owner reads. */
const FOREIGN =
  /\bE(NOENT|EXIST|ISDIR|NOTDIR|NOTEMPTY|ACCES|PERM|NOSPC|MFILE|INVAL|LOOP|NAMETOOLONG|ROFS|BUSY|PIPE)\b|invalid input|syntax|Failed query|violates|relation "|does not exist|null value in|unexpected|TypeError|RangeError|SyntaxError|Error:|TAR_|zlib|cannot|Detalle técnico/

function expectSpanish(message: string) {
  expect(message, message).not.toMatch(FOREIGN)
  expect(message, message).toMatch(/[áéíóúñ]|\b(la|el|de|no|es|una?)\b/)
}

/**
 * Restores `bytes` into a data directory inside a sandbox of its own and expects a refusal in
 * Spanish after which the sandbox is exactly as before: nothing in the data directory (no
 * `.restauracion-*`, database or media) and nothing beside it (where `../x` would land).
 */
async function refusal(bytes: Buffer, options: { dataDirExists?: boolean } = {}) {
  const sandbox = fresh('arenero')
  const dataDir = path.join(sandbox, 'datos')
  fs.mkdirSync(sandbox)
  if (options.dataDirExists) {
    fs.mkdirSync(path.join(dataDir, 'auth'), { recursive: true })
    fs.writeFileSync(path.join(dataDir, 'auth', 'clave'), 'x')
  }
  const before = listing(sandbox)
  const error = await restoreBackup({
    file: writeArchive(bytes),
    target: { directory: path.join(dataDir, 'db') },
    dataDir,
    mediaDirectory: path.join(dataDir, 'media'),
  }).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(BackupError)
  const message = (error as Error).message
  expectSpanish(message)
  expect(listing(sandbox), message).toEqual(before)
  return message
}

const outside = path.join(root, 'fuera-absoluta')

// ---------------------------------------------------------------------------------------------

describe('an archive is checked against its manifest before anything it holds is written', () => {
  test('put together by hand it restores, also without table sizes (backups made before they existed)', async () => {
    for (const tableSizes of [true, false]) {
      const dataDir = fresh('restaurada')
      const parts = sealed(base, { tableSizes })
      expect(parts.manifest.tables.every((table) => (table.size === undefined) === !tableSizes)).toBe(true)
      const result = await restoreBackup({
        // An empty media folder (its images deleted) is no reason to refuse a backup.
        file: writeArchive(pack([...entriesOf(parts), { path: 'media/vacia/', type: 'Directory' }])),
        target: { directory: path.join(dataDir, 'db') },
        dataDir,
        mediaDirectory: path.join(dataDir, 'media'),
      })
      expect(result.manifest.tables.length).toBeGreaterThan(10)
      expect(fs.readdirSync(dataDir).sort()).toEqual(['db', 'media'])
      expect(fs.readFileSync(path.join(dataDir, 'media', 'products', 'a.webp'))).toEqual(
        base.files.get('media/products/a.webp'),
      )
    }
  }, 60_000)

  test('the backup records each table file size', () => {
    for (const table of base.manifest.tables) {
      expect(table.size, table.name).toBe(base.files.get(table.file)!.length)
    }
  })

  test('1 GiB of zeros the manifest does not list is refused at its header, not written', async () => {
    const [manifest, ...rest] = entriesOf(base)
    const message = await refusal(bomb([manifest!], { path: 'relleno.bin', size: GiB }, rest))
    expect(message).toMatch(
      /no es una copia de seguridad de Vitrina válida .*: relleno\.bin no figura en el manifiesto\.$/,
    )
  })

  test('a listed file whose header claims more than the manifest declares is refused at its header', async () => {
    const entries = entriesOf(base).filter((entry) => entry.path !== 'media/products/a.webp')
    const at = entries.findIndex((entry) => entry.path === 'media/products/')
    const message = await refusal(
      bomb(entries.slice(0, at + 1), { path: 'media/products/a.webp', size: GiB }, entries.slice(at + 1)),
    )
    expect(message).toMatch(/media\/products\/a\.webp mide 1073741824 bytes y el manifiesto dice 3000\.$/)
  })

  test('a table file of an old backup (no size in the manifest) is bounded by its row count', async () => {
    const parts = sealed(base, { tableSizes: false })
    const entries = entriesOf(parts).filter((entry) => entry.path !== 'tables/settings.jsonl')
    const message = await refusal(
      bomb(entries.slice(0, 2), { path: 'tables/settings.jsonl', size: 16 * MiB }, entries.slice(2)),
    )
    expect(message).toMatch(/tables\/settings\.jsonl es más grande de lo que puede ser para sus filas\.$/)
  })

  test.each([
    ['../../fuera', 'first'],
    [outside, 'first'],
    ['./../fuera', 'first'],
    ['media/../../fuera', 'after the manifest'],
    ['tables/../../../fuera', 'after the manifest'],
    [outside, 'after the manifest'],
  ])(
    'a path that leaves the data directory (%s, %s) is refused before anything is unpacked',
    async (name, where) => {
      const entries = entriesOf(base)
      const hostile: Entry = { path: name, body: Buffer.from('fuera') }
      const list = where === 'first' ? [hostile, ...entries] : [entries[0]!, hostile, ...entries.slice(1)]
      for (const dataDirExists of [false, true]) {
        const message = await refusal(pack(list), { dataDirExists })
        expect(message).toMatch(/contiene una ruta que sale de la copia: /)
      }
      expect(fs.existsSync(outside)).toBe(false)
    },
  )

  test.each<[{ type: EntryType; linkpath?: string }, RegExp]>([
    [
      { type: 'SymbolicLink', linkpath: '/etc/passwd' },
      /media\/products\/a\.webp es un enlace simbólico, y una copia/,
    ],
    [{ type: 'Link', linkpath: 'manifest.json' }, /media\/products\/a\.webp es un enlace, y una copia/],
    [{ type: 'CharacterDevice' }, /es un dispositivo, y una copia/],
    [{ type: 'BlockDevice' }, /es un dispositivo, y una copia/],
    [{ type: 'FIFO' }, /es una tubería \(FIFO\), y una copia/],
    [{ type: 'SparseFile' }, /es una entrada de un tipo que una copia de Vitrina no lleva/],
  ])('only files and folders: %o is refused', async (kind, expected) => {
    const entries = entriesOf(base).map((entry) =>
      entry.path === 'media/products/a.webp' ? { path: entry.path, ...kind } : entry,
    )
    expect(await refusal(pack(entries))).toMatch(expected)
  })

  test('the manifest comes first, and is read with a ceiling', async () => {
    const [manifest, ...rest] = entriesOf(base)
    expect(await refusal(pack([...rest, manifest!]))).toMatch(
      /falta el manifiesto \(manifest\.json\), que debe ser lo primero del archivo\.$/,
    )
    expect(await refusal(pack([{ ...manifest!, size: 65 * MiB }]))).toMatch(
      /el manifiesto \(manifest\.json\) es demasiado grande\.$/,
    )
  })

  test('each listed file once, each folder one the manifest needs, no listed file missing', async () => {
    const entries = entriesOf(base)
    const table = entries.find((entry) => entry.path === 'tables/settings.jsonl')!
    expect(await refusal(pack([...entries, table]))).toMatch(
      /tables\/settings\.jsonl aparece dos veces en el archivo/,
    )
    expect(await refusal(pack([...entries, { path: 'otra/', type: 'Directory' }]))).toMatch(
      /la carpeta otra no figura en el manifiesto/,
    )
    expect(await refusal(pack(entries.filter((entry) => entry !== table)))).toMatch(
      /: falta tables\/settings\.jsonl\.$/,
    )
  })

  test.each(['../fuera.webp', '/tmp/fuera.webp', 'a//b.webp', 'a\\..\\b.webp', 'C:/b.webp', './a.webp', ''])(
    'a media path in the manifest that is not a plain relative path (%j) is refused',
    async (hostile) => {
      const parts = sealed(base)
      parts.manifest.media.files[0]!.path = hostile
      expect(await refusal(pack(entriesOf(parts)))).toMatch(/ruta de archivo no válida/)
    },
  )

  test('a backup larger than the free disk space is refused before it is unpacked', async () => {
    const parts = sealed(base)
    parts.manifest.media.files[0]!.size = 2 ** 52
    expect(await refusal(pack(entriesOf(parts)))).toMatch(
      /^No hay espacio suficiente en el disco de .*: la copia necesita al menos .* MB y quedan .* MB libres\. No se restauró nada\.$/,
    )
  })
})

// ---------------------------------------------------------------------------------------------

/** Refusals of rows, each on the same database: the load is one transaction, undone every time. */
function rowCases(): [string, () => Parts, RegExp][] {
  const view = (values: Record<string, string | null>) =>
    row('page_views', {
      month: '2026-12',
      page_name: 'tienda',
      visits: '1',
      total_time_seconds: '2',
      ...values,
    })
  const setting = (values: Record<string, string | null>) =>
    row('settings', { key: 'otra', value: '1', updated_at: '2026-11-20 10:00:00+00', ...values })
  const lead = (table: string, line: number) =>
    `^La tabla ${table} de la copia no se puede cargar: (en )?la fila ${line} de tables/${table}\\.jsonl,? `
  return [
    [
      'not an integer',
      () => withLines('page_views', [view({ visits: 'x' })]),
      new RegExp(`${lead('page_views', 2)}la columna visits tiene "x", que no es un número entero\\.$`),
    ],
    [
      'an integer out of range',
      () => withLines('page_views', [view({ visits: '99999999999' })]),
      /la columna visits tiene "99999999999", que está fuera del rango que admite la columna \(un número entero\)\.$/,
    ],
    [
      'a NUL character',
      () => withLines('page_views', [view({ page_name: 'a\u0000b' })]),
      /la columna page_name tiene "a\?b", que contiene un carácter que la base de datos no admite/,
    ],
    [
      'not JSON in a jsonb column',
      () => withLines('settings', [setting({ value: '{' })]),
      /en la fila 2 .*, la columna value tiene "\{", que no es JSON válido\.$/,
    ],
    [
      'not a timestamp',
      () => withLines('settings', [setting({ updated_at: 'ayer' })]),
      /la columna updated_at tiene "ayer", que no es una fecha y hora válida\.$/,
    ],
    [
      'null where a value is required',
      () => withLines('settings', [setting({ value: null })]),
      /la columna value está vacía \(null\) y es obligatoria\.$/,
    ],
    [
      'a repeated key',
      () => withLines('settings', [setting({ key: 'shippingCost' })]),
      new RegExp(
        `${lead('settings', 2)}repite el valor de la columna key \\("shippingCost"\\) de otra fila, y debe ser único\\.$`,
      ),
    ],
    [
      'a reference to a missing row',
      () =>
        withLines('product_locations', [
          row('product_locations', { product_sku: 'NO-EXISTE', code: 'P1', stock: '3' }),
        ]),
      /la fila 1 .*, la columna product_sku \("NO-EXISTE"\) se refiere a una fila de la tabla products que no está en la copia\.$/,
    ],
    [
      'a rule of the table',
      () => withLines('storefront_version', [row('storefront_version', { id: '2', version: '0' })]),
      /la fila 2 .* no cumple la regla storefront_version_one_row de la tabla\.$/,
    ],
    [
      'the 550th of 600 rows (past the first batch)',
      () =>
        withLines(
          'page_views',
          Array.from({ length: 600 }, (_, i) =>
            view({ page_name: `p${i}`, visits: i === 548 ? '1.5' : '1' }),
          ),
          { replace: true },
        ),
      /la fila 549 de tables\/page_views\.jsonl, la columna visits tiene "1\.5", que no es un número entero\.$/,
    ],
    ['a line that is not JSON', () => withLines('settings', ['nope']), /la fila 2 .* no es JSON válido\.$/],
    [
      'a JSON object',
      () => withLines('settings', ['{"key":"a"}']),
      /la fila 2 .* no es una lista de 3 valores\.$/,
    ],
    [
      'too few values',
      () => withLines('settings', ['["a"]']),
      /la fila 2 .* tiene 1 valor y la tabla tiene 3 columnas\.$/,
    ],
    [
      'a number instead of its text',
      () => withLines('settings', ['["a", 1, null]']),
      /en la fila 2 .*, el valor de la columna value no es un texto ni null \(1\)\.$/,
    ],
    [
      'a sequence this version does not have',
      () => {
        const parts = sealed(base)
        parts.manifest.sequences.push({ name: 'no_existe_seq', lastValue: '7' })
        return parts
      },
      /^La secuencia no_existe_seq de la copia no existe en esta versión de Vitrina: no se restauró nada\.$/,
    ],
  ]
}

/** Loads `parts` into `connection` and returns the refusal; the database must be left empty. */
async function loadRefusal(connection: Connection, parts: Parts) {
  const directory = fresh('tablas')
  fs.mkdirSync(path.join(directory, 'tables'), { recursive: true })
  for (const [name, body] of parts.files)
    if (name.startsWith('tables/')) fs.writeFileSync(path.join(directory, name), body)
  const error = await loadDatabase(connection, directory, parts.manifest).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(BackupError)
  const state = await describeDatabase(connection)
  expect(state.migrations).toEqual([])
  expect(state.tables).toEqual([])
  return (error as Error).message
}

describe('a row the database refuses is named in Spanish: table, line and column', () => {
  let connection: Connection
  beforeAll(async () => {
    connection = await openConnection({ directory: fresh('pglite') })
  })
  afterAll(async () => {
    await connection?.close()
  })

  test.each(rowCases())('PGlite: %s', async (_name, parts, expected) => {
    const message = await loadRefusal(connection, parts())
    expectSpanish(message)
    expect(message).toMatch(expected)
  })

  test('through restore: the refusal as written, and the staging database removed', async () => {
    const [, parts, expected] = rowCases()[0]!
    expect(await refusal(pack(entriesOf(parts())))).toMatch(expected)
  }, 60_000)
})

describe.skipIf(!serverUrl)('on PostgreSQL, the same refusals', () => {
  let connection: Connection
  let scratch: { url: string; drop(): Promise<void> }
  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl!, 'vitrina_hostil')
    connection = await openConnection({ url: scratch.url })
  })
  afterAll(async () => {
    await connection?.close()
    await scratch?.drop()
  })

  test.each(rowCases())('PostgreSQL: %s', async (_name, parts, expected) => {
    const message = await loadRefusal(connection, parts())
    expectSpanish(message)
    expect(message).toMatch(expected)
  })
})

// ---------------------------------------------------------------------------------------------
// Fuzz: the restore inputs (issue 23) beside the routes' (tests/fuzz.ts)

/** As in tests/fuzz.ts (not imported: it loads the whole app for its route helpers). */
const positive = (text: string | undefined) => {
  const value = Number(text)
  return Number.isInteger(value) && value > 0 ? value : null
}
const FUZZ_RUNS = positive(process.env.FUZZ_RUNS) ?? 100
const FUZZ_SEED = positive(process.env.FUZZ_SEED) ?? 11

const entryNames = fc.oneof(
  fc.constantFrom(
    'manifest.json',
    './manifest.json',
    'tables/',
    'tables/settings.jsonl',
    'tables/otra.jsonl',
    'media/',
    'media/products/',
    'media/products/a.webp',
    'media/banners/b.webp',
    '../fuera',
    '../../fuera',
    '/tmp/fuera',
    'C:\\fuera',
    'media\\fuera',
    'media/../tables/settings.jsonl',
    'media//a.webp',
    './',
    '.',
    '..',
    `media/${'ñ'.repeat(150)}.webp`,
    'a'.repeat(300),
  ),
  fc.string({
    unit: fc.constantFrom('a', 'b', '.', '/', '\\', 'ñ', ' ', ':', '-'),
    minLength: 1,
    maxLength: 30,
  }),
)
const entryTypes = fc.constantFrom<EntryType[]>(
  'File',
  'File',
  'File',
  'Directory',
  'SymbolicLink',
  'Link',
  'CharacterDevice',
  'FIFO',
  'ContiguousFile',
  'SparseFile',
  'GNUDumpDir',
)
const strayEntry: fc.Arbitrary<Entry> = fc
  .record({
    path: entryNames,
    type: entryTypes,
    body: fc.uint8Array({ maxLength: 1500 }),
    // Usually the body's own size; a lying header a quarter of the time.
    size: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 3 },
      { arbitrary: fc.oneof(fc.integer({ min: 0, max: 4096 }), fc.constantFrom(GiB, 2 ** 33)), weight: 1 },
    ),
  })
  .map(({ path: name, type, body, size }) => ({
    path: name,
    type,
    body: Buffer.from(body),
    size,
    linkpath: /Link/.test(type) ? '/etc/passwd' : undefined,
  }))

const hostileJsonValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('../fuera', '/tmp/x', '', -1, 2 ** 53, 1e300, null, 'a\u0000b', 'x'.repeat(70)),
)

type Operation =
  | { kind: 'insert'; at: number; entry: Entry }
  | { kind: 'remove' | 'duplicate'; at: number }
  | { kind: 'swap'; at: number; to: number }
  | { kind: 'size'; at: number; size: number }
  | { kind: 'type'; at: number; type: EntryType }
  | { kind: 'body'; at: number; body: Uint8Array }
  | { kind: 'manifest'; at: number; value: unknown }

// Size lies and type changes mostly desynchronise the tar stream (tar refuses it): rarer than the
// changes that keep it readable and test what restore itself decides.
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), entry: strayEntry }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constantFrom('remove' as const, 'duplicate' as const), at: fc.nat() }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), to: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('size' as const),
      at: fc.nat(),
      size: fc.oneof(fc.nat(5000), fc.constant(GiB)),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('type' as const), at: fc.nat(), type: entryTypes }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('body' as const),
      at: fc.nat(),
      body: fc.uint8Array({ maxLength: 600 }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('manifest' as const), at: fc.nat(), value: hostileJsonValue }),
    weight: 4,
  },
)

/** Every place in the manifest a value could be changed: [object, key] pairs. */
function manifestSlots(value: unknown, slots: [Record<string, unknown>, string][] = []) {
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      slots.push([value as Record<string, unknown>, key])
      manifestSlots(child, slots)
    }
  }
  return slots
}

function mutated(operations: Operation[]): Entry[] {
  const manifest = structuredClone(sealed(base).manifest)
  const entries = entriesOf({ manifest, files: base.files })
  for (const op of operations) {
    if (op.kind === 'manifest') {
      const slots = manifestSlots(manifest)
      const [owner, key] = slots[op.at % slots.length]!
      owner[key] = op.value
      entries[0] = { path: 'manifest.json', body: Buffer.from(JSON.stringify(manifest) ?? '') }
      continue
    }
    const at = op.at % Math.max(1, entries.length)
    if (op.kind === 'insert') entries.splice(at, 0, op.entry)
    if (!entries.length) continue
    if (op.kind === 'remove') entries.splice(at, 1)
    if (op.kind === 'duplicate') entries.splice(at, 0, entries[at]!)
    if (op.kind === 'swap') {
      const to = op.to % entries.length
      ;[entries[at], entries[to]] = [entries[to]!, entries[at]!]
    }
    if (op.kind === 'size') entries[at] = { ...entries[at]!, size: op.size }
    if (op.kind === 'type') {
      entries[at] = {
        ...entries[at]!,
        type: op.type,
        linkpath: /Link/.test(op.type) ? '../fuera' : undefined,
      }
    }
    if (op.kind === 'body') entries[at] = { ...entries[at]!, body: Buffer.from(op.body), size: undefined }
  }
  return entries
}

/** A restore input: junk, a damaged real archive, or a tar put together with hostile changes. */
const archiveInput: fc.Arbitrary<{ label: string; bytes: () => Buffer }> = fc.oneof(
  // Junk, cut and flipped archives stop at gzip or tar's own checks: a quarter of the runs is enough.
  {
    arbitrary: fc
      .record({ bytes: fc.uint8Array({ maxLength: 4096 }), gzip: fc.boolean() })
      .map(({ bytes, gzip }) => ({
        label: `${bytes.length} bytes al azar${gzip ? ' en gzip' : ''}`,
        bytes: () => (gzip ? zlib.gzipSync(bytes) : Buffer.from(bytes)),
      })),
    weight: 1,
  },
  {
    arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((cut) => ({
      label: `copia cortada al ${Math.round(cut * 100)} %`,
      bytes: () => {
        const whole = pack(entriesOf(sealed(base)))
        return whole.subarray(0, Math.floor(whole.length * cut))
      },
    })),
    weight: 1,
  },
  {
    arbitrary: fc
      .record({ at: fc.double({ min: 0, max: 1, noNaN: true }), mask: fc.integer({ min: 1, max: 255 }) })
      .map(({ at, mask }) => ({
        label: `copia con un byte cambiado (${at.toFixed(3)}, ${mask})`,
        bytes: () => {
          const whole = Buffer.from(pack(entriesOf(sealed(base))))
          const index = Math.floor((whole.length - 1) * at)
          whole[index] = whole[index]! ^ mask
          return whole
        },
      })),
    weight: 1,
  },
  {
    arbitrary: fc
      .record({ operations: fc.array(operation, { minLength: 1, maxLength: 3 }), plain: fc.boolean() })
      .map(({ operations, plain }) => ({
        label: JSON.stringify(operations, (_key, value: unknown) =>
          value instanceof Uint8Array || Buffer.isBuffer(value)
            ? `[${(value as Uint8Array).length} bytes]`
            : value,
        ).slice(0, 600),
        bytes: () => {
          const tarBytes = Buffer.concat([...mutated(operations).map(encodeEntry), endOfArchive])
          return plain ? tarBytes : zlib.gzipSync(tarBytes)
        },
      })),
    weight: 9,
  },
)

/** Random table lines: arrays of the right length with values of any JSON type, or any JSON. */
function tableLines(columns: number) {
  const value = fc.oneof(
    { arbitrary: fc.string({ maxLength: 12 }), weight: 4 },
    {
      arbitrary: fc.constantFrom(
        '1',
        '-1',
        '0',
        '2147483648',
        '1e5',
        'true',
        'null',
        '{}',
        '[]',
        '2026-11-20',
        'a\u0000b',
        '\ud800',
      ),
      weight: 4,
    },
    { arbitrary: fc.constant(null), weight: 2 },
    { arbitrary: fc.oneof(fc.integer(), fc.boolean(), fc.jsonValue({ maxDepth: 1 })), weight: 1 },
  )
  const line = fc.oneof(
    {
      arbitrary: fc.array(value, { minLength: columns, maxLength: columns }).map((v) => JSON.stringify(v)),
      weight: 6,
    },
    { arbitrary: fc.array(value, { maxLength: columns + 2 }).map((v) => JSON.stringify(v)), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'x'), weight: 1 },
    {
      arbitrary: fc.string({ minLength: 1, maxLength: 20 }).filter((text) => !/[\r\n]/.test(text)),
      weight: 1,
    },
  )
  return fc.array(line, { minLength: 1, maxLength: 4 })
}

const fuzzedTables = [
  'page_views',
  'settings',
  'product_locations',
  'storefront_version',
  'categories',
  'orders',
]
const tableInput = fc.constantFrom(...fuzzedTables).chain((table) =>
  fc.record({
    table: fc.constant(table),
    lines: tableLines(base.manifest.tables.find((t) => t.name === table)!.columns.length),
    replace: fc.boolean(),
  }),
)

describe('fuzz: restore either succeeds or refuses in Spanish, leaving nothing behind', () => {
  test('hostile and damaged archives', async () => {
    let refused = 0
    await fc.assert(
      fc.asyncProperty(archiveInput, async (input) => {
        // A PGlite target holding a stray file: an archive that unpacks cleanly is refused right
        // after (no database load per run), so every run exercises reading and clean-up alone.
        const sandbox = fresh('fuzz')
        const dataDir = path.join(sandbox, 'datos')
        fs.mkdirSync(path.join(dataDir, 'db'), { recursive: true })
        fs.writeFileSync(path.join(dataDir, 'db', 'nota.txt'), 'x')
        const before = listing(sandbox)
        const error = await restoreBackup({
          file: writeArchive(input.bytes()),
          target: { directory: path.join(dataDir, 'db') },
          dataDir,
          mediaDirectory: path.join(dataDir, 'media'),
        }).catch((caught: unknown) => caught)
        expect(error, input.label).toBeInstanceOf(BackupError)
        const message = (error as Error).message
        // FUZZ_DEBUG=restore prints how each input was answered (to see the generators reach deep).
        if (process.env.FUZZ_DEBUG === 'restore') console.info(message.replace(/^.*dañada: /, ''))
        expectSpanish(message)
        expect(listing(sandbox), `${input.label}\n${message}`).toEqual(before)
        if (!/contiene archivos que no son una base de datos/.test(message)) refused++
        fs.rmSync(sandbox, { recursive: true, force: true })
      }),
      { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: false },
    )
    // Most inputs must be refused as archives, not reach the target (else the generators are too tame).
    expect(refused).toBeGreaterThan(FUZZ_RUNS / 2)
  }, 240_000)

  test('table lines with any JSON, loaded into the database', async () => {
    const connection = await openConnection({ directory: fresh('pglite-fuzz') })
    try {
      await fc.assert(
        fc.asyncProperty(tableInput, async ({ table, lines, replace }) => {
          const parts = withLines(table, lines, { replace })
          const directory = fresh('tablas')
          fs.mkdirSync(path.join(directory, 'tables'), { recursive: true })
          for (const [name, body] of parts.files) {
            if (name.startsWith('tables/')) fs.writeFileSync(path.join(directory, name), body)
          }
          const error = await loadDatabase(connection, directory, parts.manifest).then(
            () => null,
            (caught: unknown) => caught,
          )
          if (error === null) {
            // Accepted: emptied again for the next run.
            await connection.exec(
              'drop schema drizzle cascade; drop schema public cascade; create schema public',
            )
            return
          }
          expect(error, `${table}: ${lines.join(' | ')}`).toBeInstanceOf(BackupError)
          expectSpanish((error as Error).message)
          expect((await describeDatabase(connection)).tables).toEqual([])
        }),
        { numRuns: Math.max(10, Math.round(FUZZ_RUNS / 4)), seed: FUZZ_SEED, endOnFailure: false },
      )
    } finally {
      await connection.close()
    }
  }, 300_000)

  test('whole restores of archives with such lines', async () => {
    await fc.assert(
      fc.asyncProperty(tableInput, async ({ table, lines, replace }) => {
        const sandbox = fresh('fuzz-completo')
        const dataDir = path.join(sandbox, 'datos')
        fs.mkdirSync(sandbox)
        const error = await restoreBackup({
          file: writeArchive(pack(entriesOf(withLines(table, lines, { replace })))),
          target: { directory: path.join(dataDir, 'db') },
          dataDir,
          mediaDirectory: path.join(dataDir, 'media'),
        }).then(
          () => null,
          (caught: unknown) => caught,
        )
        if (error === null) return
        expect(error).toBeInstanceOf(BackupError)
        expectSpanish((error as Error).message)
        expect(listing(sandbox)).toEqual([])
      }),
      { numRuns: Math.max(2, Math.round(FUZZ_RUNS / 50)), seed: FUZZ_SEED, endOnFailure: false },
    )
  }, 300_000)
})
