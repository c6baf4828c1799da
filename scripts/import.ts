// `npm run import -- <export.json> [--dry-run] [--report report.json]`: brings the original shop's
// data into the configured database (DATABASE_URL → PostgreSQL, else PGlite in DATA_DIR/db) and its
// media into the configured storage (DATA_DIR/media or S3).
import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import chain from 'stream-chain'
import { parser } from 'stream-json'
import { streamObject } from 'stream-json/streamers/stream-object.js'
import { assertPgliteFree, BackupError } from '#app/db/backup/connection.server.ts'
import { openDatabase } from '#app/db/client.server.ts'
import { importOriginalShop, ImportStopped, type ImportReport } from '#app/modules/import/import.server.ts'
import type { ExportDocuments, ImportProgress } from '#app/modules/import/plan.ts'
import { mediaSettingsFromEnv } from '#app/modules/media/config.server.ts'
import { remoteFiles } from '#app/modules/media/remote-file.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'

const USAGE = 'Uso: npm run import -- <exportación.json> [--dry-run] [--report reporte.json]'
/** Issues printed on the console; the report file has them all. */
const SHOWN_ISSUES = 20

/** A failure of the command itself, worded for the owner. */
class CommandError extends Error {}

/** How often a step that goes on prints how far along it is. */
const PROGRESS_INTERVAL_MS = 1_000

const megabytes = (bytes: number) =>
  `${(bytes / 1_000_000).toLocaleString('es-CO', { maximumFractionDigits: bytes < 10_000_000 ? 1 : 0 })} MB`

const notAnExport = (file: string) =>
  `${file} no es una exportación: debe ser un objeto JSON con una clave por documento.`

/**
 * Progress on stderr (the report keeps stdout): a step is shown when it starts, then at most about
 * once a second while it goes on, so a long import shows it is alive without flooding the console.
 */
function progressPrinter(): ImportProgress {
  let shownAt = 0
  let shownLabel = ''
  return (label, done, total) => {
    const now = Date.now()
    const finished = done !== undefined && done === total
    if (label === shownLabel && now - shownAt < PROGRESS_INTERVAL_MS && !finished) return
    shownAt = now
    shownLabel = label
    const going = label.endsWith('…') ? '' : '…'
    const count =
      done === undefined
        ? going
        : `: ${done.toLocaleString('es-CO')} de ${(total ?? done).toLocaleString('es-CO')}`
    process.stderr.write(`${label}${count}\n`)
  }
}

/**
 * What is wrong with a file the JSON parser stopped on, in Spanish (stream-json says it in English,
 * without a position: the error lies before what had been read from the file when it stopped).
 */
function jsonProblem(detail: string, bytesRead: number, size: number): string {
  // "Parser has expected a value": the input ended in the middle of a value.
  if (/has expected/i.test(detail)) {
    return 'el archivo no es un JSON válido: se corta antes de terminar (¿se copió o se descargó a medias?)'
  }
  const where = bytesRead < size ? ` en los primeros ${megabytes(bytesRead)} de ${megabytes(size)}` : ''
  return `el archivo no es un JSON válido: tiene un error de sintaxis${where} (un signo que sobra o que falta)`
}

/**
 * The export's top-level documents as the file is read, one at a time (stream-json): memory holds
 * the largest document, never the whole file. `JSON.parse` of a 50 MB export took its size many
 * times over, and showed nothing while it worked.
 */
async function* exportDocuments(file: string, size: number, progress: ImportProgress): ExportDocuments {
  const input = createReadStream(file)
  const label = 'Leyendo la exportación'
  const reading = setInterval(
    () => progress(`${label}… ${megabytes(input.bytesRead)} de ${megabytes(size)}`),
    PROGRESS_INTERVAL_MS,
  )
  reading.unref()
  progress(`${label} (${megabytes(size)})`)
  // Values come whole (not also piece by piece): fewer tokens, a fifth faster.
  const documents = chain([input, parser({ streamValues: false }), streamObject()]) as AsyncIterable<{
    key: string
    value: unknown
  }>
  try {
    for await (const { key, value } of documents) yield [key, value]
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    if (/top-level object/i.test(detail)) throw new CommandError(notAnExport(file), { cause: error })
    throw new CommandError(
      `No se pudo leer ${file} como JSON: ${jsonProblem(detail, input.bytesRead, size)}. Detalle técnico: ${detail}`,
      { cause: error },
    )
  } finally {
    clearInterval(reading)
    input.destroy()
  }
}

/** Set once the import's transaction has committed: a later failure leaves the import in place. */
let committed = false

function printReport(report: ImportReport) {
  const { imported: i, alreadyImported: a } = report
  console.log(report.dryRun ? 'Simulación (--dry-run): no se guardó nada.' : 'Importación terminada.')
  console.log(
    `${report.dryRun ? 'Se importarían' : 'Importado'}: ${i.categories} categorías, ${i.products} productos ` +
      `(${i.movements} movimientos), ${i.orders} pedidos (${i.ordersHoldingUnits} por enviar con sus unidades apartadas), ` +
      `meses de clics: ${i.clickMonths}; meses de visitas: ${i.pageViewMonths}.`,
  )
  if (!report.dryRun) {
    console.log(
      `Archivos: ${i.mediaStored} de ${i.mediaFiles} guardados; ${i.mediaMissing} no se pudieron traer (no se muestran en la tienda; «Editar producto» los lista para subirlos de nuevo).`,
    )
  } else {
    // A dry run downloads nothing: it tells how many files a run would bring.
    console.log(
      `Se descargarían ${i.mediaFiles} ${i.mediaFiles === 1 ? 'archivo' : 'archivos'} de productos.`,
    )
  }
  const already = a.categories + a.products + a.orders + a.clickMonths + a.pageViewMonths
  if (already) {
    console.log(
      `Ya importado antes (sin cambios): ${a.categories} categorías, ${a.products} productos, ${a.orders} pedidos, ` +
        `meses de clics: ${a.clickMonths}; meses de visitas: ${a.pageViewMonths}.`,
    )
  }
  for (const [title, issues] of [
    ['Rechazados', report.refused],
    ['Avisos', report.warnings],
  ] as const) {
    if (!issues.length) continue
    console.log(`\n${title} (${issues.length}):`)
    for (const issue of issues.slice(0, SHOWN_ISSUES))
      console.log(`  - ${issue.kind} ${issue.key}: ${issue.reason}`)
    if (issues.length > SHOWN_ISSUES) console.log(`  … y ${issues.length - SHOWN_ISSUES} más (ver --report).`)
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean', default: false },
      report: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help || positionals.length !== 1) {
    console.log(USAGE)
    if (!values.help) process.exitCode = 1
    return
  }
  const file = positionals[0]!
  let size: number
  let start: string
  try {
    const handle = await fs.open(file)
    try {
      size = (await handle.stat()).size
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0)
      start = buffer
        .subarray(0, bytesRead)
        .toString('utf8')
        .replace(/^\ufeff/, '')
        .trimStart()
    } finally {
      await handle.close()
    }
  } catch (error) {
    throw new CommandError(`No se pudo leer ${file}: ${(error as Error).message}`, { cause: error })
  }
  // Told before the database is opened; anything else wrong in the file is found as it is read.
  if (!start.startsWith('{')) throw new CommandError(notAnExport(file))
  const progress = progressPrinter()
  const env = parseEnv(process.env)
  const directory = path.join(env.dataDir, 'db')
  // A running shop has the embedded database open: a second process writing it corrupts it.
  if (!env.DATABASE_URL) assertPgliteFree(directory)
  const database = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { directory })
  const media = mediaSettingsFromEnv(env)
  const remote = remoteFiles()
  try {
    const report = await importOriginalShop(
      { db: database.db, storage: media.storage, remote },
      exportDocuments(file, size, progress),
      { dryRun: values['dry-run'], progress },
    )
    committed = !report.dryRun
    printReport(report)
    if (values.report) {
      await fs.writeFile(values.report, `${JSON.stringify(report, null, 2)}\n`)
      console.log(`\nReporte completo en ${values.report}`)
    }
    if (!report.dryRun) await database.executeSql('analyze')
  } finally {
    await remote.close?.()
    await media.storage.close?.()
    await database.close()
  }
}

/**
 * What the owner reads when the command fails: our own refusals as they are; anything else (a
 * database or network error, in English) after a Spanish line saying what became of the import.
 */
function failureMessage(error: unknown, afterCommit: boolean): string {
  const detail = error instanceof Error ? error.message : String(error)
  if (error instanceof CommandError || error instanceof BackupError || error instanceof ImportStopped) {
    return detail
  }
  return afterCommit
    ? `La importación se guardó, pero falló un paso posterior. Detalle: ${detail}`
    : `La importación se detuvo por un error inesperado: no se importó nada. Detalle: ${detail}`
}

main().catch((error: unknown) => {
  console.error(failureMessage(error, committed))
  process.exit(1)
})
