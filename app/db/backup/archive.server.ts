import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import * as tar from 'tar'
import { z } from 'zod'
import {
  BackupError,
  describeTarget,
  isPgliteDirectory,
  openConnection,
  type Connection,
  type ConnectionTarget,
} from './connection.server.ts'
import { describeDatabase, dumpDatabase, loadDatabase, migrationLevel, shown } from './snapshot.server.ts'

export const BACKUP_FORMAT = 'vitrina-backup'
export const BACKUP_FORMAT_VERSION = 1

const ManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.literal(BACKUP_FORMAT_VERSION),
  appVersion: z.string(),
  createdAt: z.string(),
  source: z.enum(['pglite', 'postgres']),
  migrations: z
    .array(z.object({ tag: z.string().nullable(), hash: z.string(), createdAt: z.number() }))
    .min(1),
  tables: z.array(
    z.object({
      name: z.string().regex(/^[a-z_][a-z0-9_]*$/),
      columns: z.array(z.string()),
      rows: z.number().int().min(0),
      file: z.string().regex(/^tables\/[a-z0-9_]+\.jsonl$/),
      /** Bytes of the file; absent in backups written before it was added (same format version). */
      size: z.number().int().min(0).optional(),
      sha256: z.string().length(64),
    }),
  ),
  sequences: z.array(z.object({ name: z.string(), lastValue: z.string().nullable() })),
  media: z.object({
    included: z.boolean(),
    files: z.array(
      z.object({ path: z.string(), size: z.number().int().min(0), sha256: z.string().length(64) }),
    ),
  }),
})
export type Manifest = z.infer<typeof ManifestSchema>

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-')

async function fileSha256(file: string) {
  const hash = createHash('sha256')
  await pipeline(fs.createReadStream(file), hash)
  return hash.digest('hex')
}

/** Every file under a directory, as forward-slash paths relative to it. */
async function listFiles(root: string): Promise<string[]> {
  if (!fs.existsSync(root)) return []
  const entries = await fs.promises.readdir(root, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort()
}

/** Queued pg-boss jobs live in their own schema, which pg-boss recreates: they are not copied. */
async function pendingJobs(connection: Connection): Promise<number> {
  const [table] = await connection.query<{ present: boolean }>(
    "select to_regclass('pgboss.job') is not null as present",
  )
  if (!table?.present) return 0
  const [row] = await connection.query<{ n: number }>(
    "select count(*)::int as n from pgboss.job where state in ('created', 'retry', 'active')",
  )
  return row?.n ?? 0
}

/** Opens a PGlite directory only if it holds a database, so a typo does not create an empty one. */
async function openSource(source: ConnectionTarget): Promise<Connection> {
  if ('directory' in source && !isPgliteDirectory(source.directory)) {
    throw new BackupError(`No hay ninguna base de datos embebida en ${source.directory}.`)
  }
  return openConnection(source)
}

export type BackupResult = { file: string; manifest: Manifest; pendingJobs: number }

/**
 * Writes one .tar.gz: manifest.json, tables/<name>.jsonl and media/ (the local media directory,
 * when given). Written under a temporary name and renamed at the end, so a failed backup never
 * leaves a file that looks complete.
 */
export async function createBackup(options: {
  source: ConnectionTarget
  mediaDirectory: string | null
  file: string
  appVersion: string
}): Promise<BackupResult> {
  const file = path.resolve(options.file)
  if (fs.existsSync(file)) throw new BackupError(`Ya existe ${file}: elige otro nombre para la copia.`)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const staging = await fs.promises.mkdtemp(`${file}.tmp-`)
  const partial = `${file}.partial-${randomBytes(4).toString('hex')}`
  try {
    const connection = await openSource(options.source)
    let dump, jobs
    try {
      dump = await dumpDatabase(connection, staging)
      jobs = await pendingJobs(connection)
    } finally {
      await connection.close()
    }
    const mediaFiles: Manifest['media']['files'] = []
    if (options.mediaDirectory && fs.existsSync(options.mediaDirectory)) {
      await fs.promises.cp(options.mediaDirectory, path.join(staging, 'media'), { recursive: true })
      for (const relative of await listFiles(path.join(staging, 'media'))) {
        const full = path.join(staging, 'media', relative)
        mediaFiles.push({
          path: relative,
          size: (await fs.promises.stat(full)).size,
          sha256: await fileSha256(full),
        })
      }
    }
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      appVersion: options.appVersion,
      createdAt: new Date().toISOString(),
      source: 'url' in options.source ? 'postgres' : 'pglite',
      ...dump,
      media: { included: options.mediaDirectory !== null, files: mediaFiles },
    }
    await fs.promises.writeFile(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2))
    const entries = ['manifest.json', 'tables', ...(mediaFiles.length ? ['media'] : [])]
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, entries)
    // Customers' personal data: readable by the owner's account only.
    await fs.promises.chmod(partial, 0o600)
    await fs.promises.rename(partial, file)
    return { file, manifest, pendingJobs: jobs }
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true })
    await fs.promises.rm(partial, { force: true })
  }
}

/**
 * The manifest is read into memory, so it has a ceiling: far above a real one (a shop with 100,000
 * media files writes about 20 MB of manifest).
 */
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024
/**
 * Backups written before table files had a size in the manifest: a table file may hold at most this
 * much per row it declares (plus one more). Vitrina's widest row is a product with a description of
 * up to 5,000 characters, a few kilobytes as JSON: the bound is some 200 times that, and still stops a
 * bomb hidden in a small table after a few megabytes instead of at a full disk.
 */
const LEGACY_ROW_BYTES = 1024 * 1024

type ExpectedFile = { size: number | null; limit: number; sha256: string }

/**
 * A relative path that stays inside the folder it is joined to, on any system: no absolute or drive
 * path, no `..`, `.` or empty segment, no backslash (a separator on Windows), no NUL, no segment
 * longer than file systems allow.
 */
function isContainedPath(relative: string): boolean {
  if (!relative || relative.length > 4096 || /[\\\0]/.test(relative)) return false
  if (relative.startsWith('/') || /^[a-zA-Z]:/.test(relative)) return false
  return relative
    .split('/')
    .every(
      (segment) => segment !== '' && segment !== '.' && segment !== '..' && Buffer.byteLength(segment) <= 255,
    )
}

/** The files the manifest lists (path inside the archive → what it must be) and the folders they need. */
function expectedFiles(manifest: Manifest, damaged: (detail: string) => BackupError) {
  const files = new Map<string, ExpectedFile>()
  const folders = new Set(['tables', 'media'])
  const tables = new Set<string>()
  for (const table of manifest.tables) {
    if (tables.has(table.name) || files.has(table.file)) {
      throw damaged(`la tabla ${table.name} figura dos veces en el manifiesto`)
    }
    tables.add(table.name)
    files.set(table.file, {
      size: table.size ?? null,
      limit: table.size ?? (table.rows + 1) * LEGACY_ROW_BYTES,
      sha256: table.sha256,
    })
  }
  for (const entry of manifest.media.files) {
    if (!isContainedPath(entry.path)) throw damaged(`ruta de archivo no válida: ${shown(entry.path)}`)
    const name = `media/${entry.path}`
    if (files.has(name)) throw damaged(`${shown(name)} figura dos veces en el manifiesto`)
    files.set(name, { size: entry.size, limit: entry.size, sha256: entry.sha256 })
    const segments = name.split('/')
    for (let end = 2; end < segments.length; end++) folders.add(segments.slice(0, end).join('/'))
  }
  for (const folder of folders) {
    if (files.has(folder)) throw damaged(`${shown(folder)} figura a la vez como archivo y como carpeta`)
  }
  return { files, folders }
}

function parseManifest(text: string, damaged: (detail: string) => BackupError): Manifest {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw damaged('el manifiesto (manifest.json) no se puede leer')
  }
  const parsed = ManifestSchema.safeParse(data)
  if (parsed.success) return parsed.data
  const version = (data as { format?: unknown; formatVersion?: unknown } | null)?.formatVersion
  if (
    (data as { format?: unknown } | null)?.format === BACKUP_FORMAT &&
    typeof version === 'number' &&
    version > BACKUP_FORMAT_VERSION
  ) {
    throw new BackupError(
      `La copia usa un formato más nuevo (versión ${version}) que esta versión de Vitrina: actualiza Vitrina antes de restaurarla.`,
    )
  }
  throw damaged('el manifiesto no tiene la forma esperada')
}

const ENTRY_KINDS: Record<string, string> = {
  SymbolicLink: 'un enlace simbólico',
  Link: 'un enlace',
  CharacterDevice: 'un dispositivo',
  BlockDevice: 'un dispositivo',
  FIFO: 'una tubería (FIFO)',
}
const isPlainFile = (type: string) => type === 'File' || type === 'OldFile'

/** Disk errors while unpacking, in the owner's words (the work folder is ours: only these happen). */
function writeFailure(error: unknown, into: string): BackupError {
  if (error instanceof BackupError) return error
  const code = (error as { code?: unknown } | null)?.code
  const where = path.dirname(into)
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new BackupError(
      `No queda espacio en el disco de ${where} para descomprimir la copia: no se restauró nada.`,
    )
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new BackupError(`No hay permiso para escribir en ${where}: no se restauró nada.`)
  }
  // Names the manifest keeps apart that this file system folds together (a.webp and A.webp).
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') {
    return new BackupError(
      `No se pudo descomprimir la copia en ${where}: dos de sus archivos tienen el mismo nombre en este disco ` +
        '(que no distingue mayúsculas de minúsculas). No se restauró nada.',
    )
  }
  if (code === 'ENAMETOOLONG') {
    return new BackupError(
      `No se pudo descomprimir la copia en ${where}: un nombre de archivo es demasiado largo para este disco. No se restauró nada.`,
    )
  }
  return new BackupError(
    `No se pudo descomprimir la copia en ${where}: no se restauró nada. Detalle técnico: ${
      error instanceof Error ? error.message : String(error)
    }`,
  )
}

/** The space the files need, checked before any is written: a huge backup is refused at once. */
async function checkFreeSpace(into: string, files: Map<string, ExpectedFile>) {
  const needed = [...files.values()].reduce((sum, file) => sum + (file.size ?? 0), 0)
  // Not every system answers statfs; then a full disk is still refused as it happens (ENOSPC).
  const stats = await fs.promises.statfs(into).catch(() => null)
  if (!stats) return
  const free = stats.bavail * stats.bsize
  if (needed > free) {
    const mb = (bytes: number) =>
      new Intl.NumberFormat('es-CO', { maximumFractionDigits: 1 }).format(bytes / 1_000_000)
    throw new BackupError(
      `No hay espacio suficiente en el disco de ${path.dirname(into)}: la copia necesita al menos ` +
        `${mb(needed)} MB y quedan ${mb(free)} MB libres. No se restauró nada.`,
    )
  }
}

/**
 * Unpacks and checks a backup in one pass over the archive, before anything is written outside
 * `into`. manifest.json comes first (createBackup writes it first); after it, only the files it
 * lists are accepted, each once, as plain files of exactly the declared size, hashed as they are
 * written: an unlisted entry, a link, a path that leaves the folder or a file larger than declared is
 * refused before its first byte reaches the disk, and a checksum mismatch as soon as that file ends.
 * Resolves only when every write stream is closed, so `into` can be removed without racing them.
 */
async function unpackBackup(file: string, into: string): Promise<Manifest> {
  const damaged = (detail: string) =>
    new BackupError(`${file} no es una copia de seguridad de Vitrina válida o está dañada: ${detail}.`)
  let manifest: Manifest | null = null
  let expected: ReturnType<typeof expectedFiles> | null = null
  const seen = new Set<string>()
  const outputs = new Set<fs.WriteStream>()
  const closed: Promise<unknown>[] = []
  let failure: BackupError | null = null
  let settle!: { resolve: () => void; reject: (error: BackupError) => void }
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }))

  const input = fs.createReadStream(file)
  closed.push(new Promise<void>((resolve) => input.once('close', () => resolve())))
  // Only gzip or plain tar, as tar.create writes: no brotli or zstd guessing.
  const parser = new tar.Parser({ strict: true, brotli: false, zstd: false })

  const refuse = (error: unknown) => {
    if (failure) return
    failure = error instanceof BackupError ? error : writeFailure(error, into)
    input.unpipe(parser)
    input.destroy()
    // Stops the parser at once, even inside a chunk it is still cutting into entries.
    parser.abort(new Error('cancelado'))
    for (const output of outputs) output.destroy()
    settle.reject(failure)
  }

  /** One listed file into `into`, hashed and counted on the way; settles when the entry ends. */
  const receive = (entry: tar.ReadEntry, name: string, wanted: ExpectedFile) => {
    const full = path.join(into, ...name.split('/'))
    fs.mkdirSync(path.dirname(full), { recursive: true })
    // `wx`: never through something already there (two names the file system folds into one).
    const output = fs.createWriteStream(full, { flags: 'wx' })
    outputs.add(output)
    closed.push(new Promise<void>((resolve) => output.once('close', () => resolve())))
    output.on('error', refuse)
    const hash = createHash('sha256')
    let count = 0
    return new Promise<void>((resolve, reject) => {
      // 'end' before 'data': a data listener starts the flow, which may end the entry at once.
      entry.on('end', () => {
        if (failure) return
        output.end()
        if (wanted.size !== null && count !== wanted.size) {
          reject(damaged(`${shown(name)} está incompleto (${count} de ${wanted.size} bytes)`))
        } else if (hash.digest('hex') !== wanted.sha256) {
          reject(damaged(`${shown(name)} no coincide con su suma de control`))
        } else resolve()
      })
      entry.on('data', (chunk: Buffer) => {
        if (failure) return
        count += chunk.length
        if (count > wanted.limit) {
          reject(damaged(`${shown(name)} es más grande de lo que declara el manifiesto`))
          return
        }
        hash.update(chunk)
        if (!output.write(chunk)) {
          entry.pause()
          output.once('drain', () => entry.resume())
        }
      })
    })
  }

  const readManifest = (entry: tar.ReadEntry) => {
    if (!isPlainFile(entry.type)) throw damaged('el manifiesto (manifest.json) no es un archivo')
    if (entry.size > MANIFEST_MAX_BYTES) throw damaged('el manifiesto (manifest.json) es demasiado grande')
    const chunks: Buffer[] = []
    let count = 0
    return new Promise<void>((resolve, reject) => {
      entry.on('end', () => {
        if (failure) return
        try {
          manifest = parseManifest(Buffer.concat(chunks).toString('utf8'), damaged)
          expected = expectedFiles(manifest, damaged)
          // A backup from a newer Vitrina is refused before its tables are unpacked.
          migrationLevel(manifest.migrations)
          resolve(checkFreeSpace(into, expected.files))
        } catch (error) {
          reject(error)
        }
      })
      entry.on('data', (chunk: Buffer) => {
        count += chunk.length
        if (count > MANIFEST_MAX_BYTES) reject(damaged('el manifiesto (manifest.json) es demasiado grande'))
        else chunks.push(chunk)
      })
    })
  }

  const accept = async (entry: tar.ReadEntry) => {
    const directory = entry.type === 'Directory'
    let name = entry.path.startsWith('./') ? entry.path.slice(2) : entry.path
    if (directory && name.endsWith('/')) name = name.slice(0, -1)
    // The archive's own root (`tar -C copia .`) names nothing.
    if (directory && (name === '' || name === '.')) return void entry.resume()
    if (!isContainedPath(name)) throw damaged(`contiene una ruta que sale de la copia: ${shown(entry.path)}`)
    if (!directory && !isPlainFile(entry.type)) {
      const kind = ENTRY_KINDS[entry.type] ?? 'una entrada de un tipo no admitido'
      throw damaged(`${shown(name)} es ${kind}, y una copia de Vitrina solo lleva archivos y carpetas`)
    }
    if (!manifest || !expected) {
      if (name !== 'manifest.json') {
        throw damaged('falta el manifiesto (manifest.json), que debe ser lo primero del archivo')
      }
      return readManifest(entry)
    }
    // Folders are never created from their entries (files bring their parents), so one is only
    // checked: an empty folder under media/ (left when its images were deleted) is harmless.
    if (directory) {
      if (!expected.folders.has(name) && !name.startsWith('media/')) {
        throw damaged(`la carpeta ${shown(name)} no figura en el manifiesto`)
      }
      return void entry.resume()
    }
    const wanted = expected.files.get(name)
    if (!wanted) throw damaged(`${shown(name)} no figura en el manifiesto`)
    if (seen.has(name)) throw damaged(`${shown(name)} aparece dos veces en el archivo`)
    seen.add(name)
    if (wanted.size !== null && entry.size !== wanted.size) {
      throw damaged(`${shown(name)} mide ${entry.size} bytes y el manifiesto dice ${wanted.size}`)
    }
    if (entry.size > wanted.limit)
      throw damaged(`${shown(name)} es más grande de lo que puede ser para sus filas`)
    return receive(entry, name, wanted)
  }

  // Entries are handled one after another: a file is checked in full before the next one starts.
  let queue: Promise<void> = Promise.resolve()
  parser.on('entry', (entry: tar.ReadEntry) => {
    queue = queue
      .then(() => {
        if (failure) return void entry.resume()
        return accept(entry)
      })
      .catch(refuse)
  })
  parser.on('ignoredEntry', (entry: tar.ReadEntry) => {
    refuse(damaged(`${shown(entry.path)} es una entrada de un tipo que una copia de Vitrina no lleva`))
  })
  parser.on('error', () => {
    refuse(damaged('no se puede descomprimir (archivo incompleto o que no es un .tar.gz)'))
  })
  parser.on('end', () => {
    queue = queue
      .then(async () => {
        if (failure) return
        if (!manifest || !expected) throw damaged('falta el manifiesto (manifest.json)')
        for (const name of expected.files.keys()) {
          if (!seen.has(name)) {
            throw damaged(name.startsWith('media/') ? `falta el archivo ${shown(name)}` : `falta ${name}`)
          }
        }
        await Promise.all(closed.slice(1))
        // A write that failed while flushing has refused by now.
        if (!failure) settle.resolve()
      })
      .catch(refuse)
  })
  input.on('error', (error) => {
    const code = (error as { code?: unknown }).code
    refuse(
      new BackupError(
        code === 'EACCES' || code === 'EPERM'
          ? `No hay permiso para leer la copia de seguridad ${file}.`
          : `No se pudo leer la copia de seguridad ${file}.`,
      ),
    )
  })
  input.pipe(parser)

  try {
    await done
  } finally {
    input.destroy()
    for (const output of outputs) if (!output.writableFinished) output.destroy()
    await Promise.all(closed)
  }
  return manifest!
}

export type RestoreResult = { manifest: Manifest; setAside: string[] }

/**
 * Restores a backup into an empty database and media directory. A target that holds data is
 * refused unless `replace`: then a PGlite directory and the media directory are renamed aside
 * (`*.antes-de-restaurar-<time>`), and a PostgreSQL database is emptied inside the restore's own
 * transaction. Nothing is written before the backup has been checked in full.
 */
export async function restoreBackup(options: {
  file: string
  target: ConnectionTarget
  /** Where the work directory goes: same disk as the data, so finished parts are renamed into place. */
  dataDir: string
  mediaDirectory: string
  replace?: boolean
}): Promise<RestoreResult> {
  const file = path.resolve(options.file)
  const stats = await fs.promises.stat(file).catch(() => null)
  if (!stats) throw new BackupError(`No existe la copia de seguridad ${file}.`)
  if (!stats.isFile())
    throw new BackupError(`${file} no es un archivo: indica el archivo .tar.gz de la copia.`)
  const dataDirExisted = fs.existsSync(options.dataDir)
  fs.mkdirSync(options.dataDir, { recursive: true })
  const work = await fs.promises.mkdtemp(path.join(options.dataDir, '.restauracion-'))
  let result: RestoreResult | null = null
  let failure: unknown = null
  try {
    result = await restoreThrough(work, file, options)
  } catch (error) {
    failure = error
  }
  // Every write into `work` has settled by now (unpackBackup waits for its streams, the database is
  // closed), so removing it cannot race a pending write.
  const left: string[] = []
  await fs.promises.rm(work, { recursive: true, force: true, maxRetries: 3 }).catch(() => left.push(work))
  if (failure && !dataDirExisted) {
    await fs.promises
      .rm(options.dataDir, { recursive: true, force: true, maxRetries: 3 })
      .catch(() => left.push(options.dataDir))
  }
  if (left.length) {
    const note = `No se pudo borrar ${left.join(' ni ')}: bórralo a mano.`
    throw new BackupError(failure instanceof Error ? `${failure.message} ${note}` : note)
  }
  if (failure) throw failure
  return result!
}

async function restoreThrough(
  work: string,
  file: string,
  options: Parameters<typeof restoreBackup>[0],
): Promise<RestoreResult> {
  const manifest = await unpackBackup(file, work)
  const setAside: string[] = []
  const notEmpty = (tables: string[]) =>
    new BackupError(
      `La base de datos de destino (${describeTarget(options.target)}) no está vacía` +
        `${tables.length ? ` (tablas con datos: ${tables.join(', ')})` : ''}: no se restauró nada. ` +
        'Usa --replace para reemplazarla por la copia.',
    )
  const isUsed = (state: Awaited<ReturnType<typeof describeDatabase>>) =>
    state.withRows.length > 0 || state.migrations.length > manifest.migrations.length

  // Every refusal comes before the first write.
  let connection: Connection | null = null
  let replaceDatabase = false
  let existingDirectory = false
  if ('url' in options.target) {
    connection = await openConnection(options.target)
  } else if (
    fs.existsSync(options.target.directory) &&
    (await fs.promises.readdir(options.target.directory)).length
  ) {
    if (!isPgliteDirectory(options.target.directory)) {
      throw new BackupError(
        `${options.target.directory} contiene archivos que no son una base de datos de Vitrina: no se restauró nada.`,
      )
    }
    existingDirectory = true
    connection = await openConnection({ directory: options.target.directory })
  }
  try {
    if (connection) {
      const state = await describeDatabase(connection)
      replaceDatabase = isUsed(state)
      if (replaceDatabase && !options.replace) throw notEmpty(state.withRows)
    }
    const mediaInUse = (await listFiles(options.mediaDirectory)).length > 0
    if (mediaInUse && !options.replace) {
      throw new BackupError(
        `La carpeta de imágenes ${options.mediaDirectory} no está vacía: no se restauró nada. ` +
          'Usa --replace para apartarla y restaurar la copia en su lugar.',
      )
    }
    if ('url' in options.target) {
      await loadDatabase(connection!, work, manifest, { wipe: replaceDatabase })
    }
  } finally {
    await connection?.close()
  }

  if ('directory' in options.target) {
    const directory = options.target.directory
    // Built beside the data and renamed into place, so a failure leaves the old directory as it was.
    const fresh = path.join(work, 'db')
    const building = await openConnection({ directory: fresh })
    try {
      await loadDatabase(building, work, manifest)
    } finally {
      await building.close()
    }
    if (existingDirectory && replaceDatabase) {
      const aside = `${directory}.antes-de-restaurar-${stamp()}`
      await fs.promises.rename(directory, aside)
      setAside.push(aside)
    } else {
      await fs.promises.rm(directory, { recursive: true, force: true })
    }
    fs.mkdirSync(path.dirname(directory), { recursive: true })
    await fs.promises.rename(fresh, directory)
  }

  if (fs.existsSync(options.mediaDirectory)) {
    if ((await listFiles(options.mediaDirectory)).length) {
      const aside = `${options.mediaDirectory}.antes-de-restaurar-${stamp()}`
      await fs.promises.rename(options.mediaDirectory, aside)
      setAside.push(aside)
    } else {
      await fs.promises.rm(options.mediaDirectory, { recursive: true, force: true })
    }
  }
  fs.mkdirSync(path.dirname(options.mediaDirectory), { recursive: true })
  const unpackedMedia = path.join(work, 'media')
  if (fs.existsSync(unpackedMedia)) await fs.promises.rename(unpackedMedia, options.mediaDirectory)
  else fs.mkdirSync(options.mediaDirectory, { recursive: true })
  return { manifest, setAside }
}

/**
 * Copies a shop on the embedded database into an empty PostgreSQL database through the backup's
 * own table format (dump to a work directory beside the data, load in one transaction). The
 * PGlite directory and the media files are left untouched.
 */
export async function moveToPostgres(options: { directory: string; url: string; workDir: string }) {
  const source = { directory: options.directory }
  const target = { url: options.url }
  fs.mkdirSync(options.workDir, { recursive: true })
  const work = await fs.promises.mkdtemp(path.join(options.workDir, '.traslado-'))
  try {
    const from = await openSource(source)
    let dump, jobs
    try {
      dump = await dumpDatabase(from, work)
      jobs = await pendingJobs(from)
    } finally {
      await from.close()
    }
    migrationLevel(dump.migrations)
    const to = await openConnection(target)
    try {
      const state = await describeDatabase(to)
      if (state.withRows.length || state.migrations.length) {
        throw new BackupError(
          `La base de datos de destino (${describeTarget(target)}) no está vacía: no se copió nada. ` +
            'El traslado solo escribe en una base de datos nueva (por ejemplo, créala con createdb).',
        )
      }
      await loadDatabase(to, work, dump)
    } finally {
      await to.close()
    }
    return { dump, pendingJobs: jobs }
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true })
  }
}
