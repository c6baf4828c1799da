// `npm run db:move-to-postgres -- <DATABASE_URL>`: copies the shop on the embedded database
// (DATA_DIR/db) into an empty PostgreSQL database, with the store stopped.
import path from 'node:path'
import { parseArgs } from 'node:util'
import { moveToPostgres } from '#app/db/backup/archive.server.ts'
import { BackupError, describeTarget } from '#app/db/backup/connection.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { failAndExit } from './backup-cli.ts'

async function main() {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h', default: false } },
  })
  if (values.help || positionals.length !== 1) {
    console.log('Uso: npm run db:move-to-postgres -- postgres://usuario:clave@servidor:5432/basededatos')
    process.exitCode = values.help ? 0 : 1
    return
  }
  const url = positionals[0]!
  if (!/^postgres(ql)?:\/\//.test(url) || !URL.canParse(url)) {
    throw new BackupError(
      `"${url}" no es una URL de PostgreSQL (postgres://usuario:clave@servidor:5432/base).`,
    )
  }
  const { DATABASE_URL: _ignored, ...rest } = process.env
  const env = parseEnv(rest)
  const directory = path.join(env.dataDir, 'db')
  console.log(`Copiando ${describeTarget({ directory })} a ${describeTarget({ url })}…`)
  const { dump, pendingJobs } = await moveToPostgres({ directory, url, workDir: env.dataDir })
  const rows = dump.tables.reduce((sum, table) => sum + table.rows, 0)
  console.log(`Copiadas ${dump.tables.length} tablas y ${rows} filas.`)
  if (pendingJobs) {
    console.log(`Aviso: había ${pendingJobs} tareas en cola en la base embebida; no se copian.`)
  }
  console.log(
    'Listo. Desde ahora inicia la tienda con DATABASE_URL=<esa URL> npm start: las imágenes siguen en ' +
      `${path.join(env.dataDir, 'media')} (o en S3) y la base embebida queda intacta, pero ya no se usa.`,
  )
}

main().catch(failAndExit)
