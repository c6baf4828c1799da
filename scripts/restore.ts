// `npm run restore -- <archivo.tar.gz> [--replace]`: a backup into the configured database (PGlite in
// DATA_DIR/db, or DATABASE_URL) and DATA_DIR/media, with the store stopped.
import { parseArgs } from 'node:util'
import { restoreBackup } from '#app/db/backup/archive.server.ts'
import { describeTarget } from '#app/db/backup/connection.server.ts'
import { localMigrations } from '#app/db/backup/snapshot.server.ts'
import { mediaSettingsFromEnv } from '#app/modules/media/config.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { failAndExit, shopLocation } from './backup-cli.ts'

async function main() {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      replace: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help || positionals.length !== 1) {
    console.log(
      'Uso: npm run restore -- <archivo.tar.gz> [--replace]\n' +
        '  --replace  restaura aunque la base de datos o la carpeta de imágenes tengan datos\n' +
        '             (la base embebida y las imágenes se apartan con el sufijo .antes-de-restaurar-<fecha>;\n' +
        '             una base PostgreSQL se vacía)',
    )
    process.exitCode = values.help ? 0 : 1
    return
  }
  const env = parseEnv(process.env)
  const { source: target, mediaDirectory } = shopLocation(env)
  const media = mediaSettingsFromEnv(env)
  await media.storage.close?.()
  console.log(`Restaurando ${positionals[0]} en ${describeTarget(target)}…`)
  const result = await restoreBackup({
    file: positionals[0]!,
    target,
    dataDir: env.dataDir,
    mediaDirectory,
    replace: values.replace,
  })
  const rows = result.manifest.tables.reduce((sum, table) => sum + table.rows, 0)
  console.log(
    `Copia restaurada (creada el ${result.manifest.createdAt}): ${result.manifest.tables.length} tablas, ` +
      `${rows} filas, ${result.manifest.media.files.length} archivos de imágenes y videos.`,
  )
  for (const aside of result.setAside) console.log(`Lo que había antes quedó en ${aside}`)
  if (result.manifest.migrations.length < localMigrations().length) {
    console.log('La copia es de una versión anterior: la tienda aplicará las migraciones nuevas al iniciar.')
  }
  if (media.kind === 's3') {
    console.log(
      `Aviso: la tienda guarda las imágenes en S3; los archivos de la copia quedaron en ${mediaDirectory}.`,
    )
  }
  console.log('Listo: inicia la tienda con npm start.')
}

main().catch(failAndExit)
