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
import { describeDatabase, dumpDatabase, loadDatabase, migrationLevel } from './snapshot.server.ts'

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

/** Unpacks and checks a backup (every file against the manifest's checksums) before anything is written. */
async function unpackBackup(file: string, into: string): Promise<Manifest> {
  if (!fs.existsSync(file)) throw new BackupError(`No existe la copia de seguridad ${file}.`)
  const damaged = (detail: string) =>
    new BackupError(`${file} no es una copia de seguridad de Vitrina válida o está dañada: ${detail}.`)
  try {
    // Only files and folders: a link inside a backup could point anywhere on the machine.
    await tar.extract({
      file,
      cwd: into,
      strict: true,
      filter: (_path, entry) => !('type' in entry) || entry.type === 'File' || entry.type === 'Directory',
    })
  } catch {
    throw damaged('no se puede descomprimir (archivo incompleto o que no es un .tar.gz)')
  }
  let manifest: Manifest
  try {
    const text = await fs.promises.readFile(path.join(into, 'manifest.json'), 'utf8')
    manifest = ManifestSchema.parse(JSON.parse(text))
  } catch (error) {
    if (error instanceof z.ZodError) throw damaged('el manifiesto no tiene la forma esperada')
    throw damaged('falta el manifiesto (manifest.json) o no se puede leer')
  }
  for (const table of manifest.tables) {
    const full = path.join(into, table.file)
    if (!fs.existsSync(full)) throw damaged(`falta ${table.file}`)
    if ((await fileSha256(full)) !== table.sha256)
      throw damaged(`${table.file} no coincide con su suma de control`)
  }
  const mediaRoot = path.join(into, 'media')
  const listed = new Set(manifest.media.files.map((entry) => entry.path))
  for (const entry of manifest.media.files) {
    const full = path.resolve(mediaRoot, entry.path)
    if (!full.startsWith(mediaRoot + path.sep)) throw damaged(`ruta de archivo no válida: ${entry.path}`)
    if (!fs.existsSync(full)) throw damaged(`falta el archivo media/${entry.path}`)
    if ((await fileSha256(full)) !== entry.sha256) {
      throw damaged(`media/${entry.path} no coincide con su suma de control`)
    }
  }
  for (const relative of await listFiles(mediaRoot)) {
    if (!listed.has(relative)) throw damaged(`media/${relative} no figura en el manifiesto`)
  }
  return manifest
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
  const dataDirExisted = fs.existsSync(options.dataDir)
  let finished = false
  if (!fs.existsSync(file)) throw new BackupError(`No existe la copia de seguridad ${file}.`)
  fs.mkdirSync(options.dataDir, { recursive: true })
  const work = await fs.promises.mkdtemp(path.join(options.dataDir, '.restauracion-'))
  try {
    const manifest = await unpackBackup(file, work)
    migrationLevel(manifest.migrations)
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
    finished = true
    return { manifest, setAside }
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true })
    if (!finished && !dataDirExisted) await fs.promises.rm(options.dataDir, { recursive: true, force: true })
  }
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
