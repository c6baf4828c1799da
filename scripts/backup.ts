// `npm run backup -- [archivo.tar.gz]`: the shop's database (PGlite in DATA_DIR/db, or DATABASE_URL)
// and its media files (DATA_DIR/media) in one file. Format and limits: docs/decisions/0013-backups.md.
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createBackup } from '#app/db/backup/archive.server.ts'
import { describeTarget } from '#app/db/backup/connection.server.ts'
import { mediaSettingsFromEnv } from '#app/modules/media/config.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { failAndExit, shopLocation } from './backup-cli.ts'

async function main() {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h', default: false } },
  })
  if (values.help || positionals.length > 1) {
    console.log('Uso: npm run backup -- [archivo.tar.gz]   (por defecto backups/vitrina-<fecha>.tar.gz)')
    return
  }
  const env = parseEnv(process.env)
  const { source, mediaDirectory } = shopLocation(env)
  const media = mediaSettingsFromEnv(env)
  await media.storage.close?.()
  const file =
    positionals[0] ?? path.join('backups', `vitrina-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`)
  const { version } = JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as { version: string }
  console.log(`Copiando ${describeTarget(source)}…`)
  const result = await createBackup({
    source,
    mediaDirectory: media.kind === 'local' ? mediaDirectory : null,
    file,
    appVersion: version,
  })
  const rows = result.manifest.tables.reduce((sum, table) => sum + table.rows, 0)
  console.log(
    `Copia de seguridad creada: ${result.file}\n` +
      `  ${result.manifest.tables.length} tablas, ${rows} filas, ${result.manifest.media.files.length} archivos de imágenes y videos`,
  )
  if (media.kind === 's3') {
    console.log(
      'Aviso: las imágenes y videos están en S3 y no van en esta copia; protégelos con el versionado del bucket.',
    )
  }
  if (result.pendingJobs) {
    console.log(
      `Aviso: había ${result.pendingJobs} tareas en cola (avisos, sincronizaciones); la copia no las incluye.`,
    )
  }
}

main().catch(failAndExit)
