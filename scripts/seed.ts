// `npm run db:seed -- --products 10000 [--reset]`: a large demo catalogue for benchmarks and trials,
// in the configured database (DATABASE_URL → PostgreSQL, else PGlite in DATA_DIR/db).
import fs from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { assertPgliteFree } from '#app/db/backup/connection.server.ts'
import { openDatabase, type Database } from '#app/db/client.server.ts'
import { isCatalogEmpty, loadDemoVideo, seedDemoData } from '#app/demo/demo-data.server.ts'
import { clearAllStock } from '#app/modules/inventory/stock.server.ts'
import { localMediaStorage } from '#app/modules/media/storage.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'

/** Media folders the demo data writes under DATA_DIR/media. */
const MEDIA_FOLDERS = ['categories', 'products', 'banners']

/**
 * Everything the catalogue owns. The stock (ledger and locations, emptied by inventory) goes first:
 * its rows point at products and would block deleting them. Orders keep their own copy of item
 * data, so they are left alone.
 */
const CATALOGUE_TABLES = ['product_categories', 'media', 'banners', 'products', 'categories']

export async function resetCatalogue(database: Database, mediaRoot: string) {
  await database.db.transaction(async (tx) => {
    await clearAllStock(tx)
    // `cascade`: PostgreSQL will not truncate products while the (now empty) stock tables point at them.
    await tx.execute(
      sql.raw(`truncate table ${CATALOGUE_TABLES.map((t) => `"${t}"`).join(', ')} restart identity cascade`),
    )
  })
  for (const folder of MEDIA_FOLDERS) {
    await fs.rm(path.join(mediaRoot, folder), { recursive: true, force: true })
  }
}

function parseOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      products: { type: 'string', default: '10000' },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  const products = Number(values.products)
  if (!Number.isInteger(products) || products < 1 || products > 1_000_000) {
    throw new Error(`--products debe ser un número entero entre 1 y 1000000 (recibido: ${values.products})`)
  }
  return { products, reset: values.reset, help: values.help }
}

async function main() {
  const options = parseOptions(process.argv.slice(2))
  if (options.help) {
    console.log('Uso: npm run db:seed -- [--products 10000] [--reset]')
    return
  }
  const env = parseEnv(process.env)
  const started = performance.now()
  const target = env.DATABASE_URL
    ? `PostgreSQL (${new URL(env.DATABASE_URL).host})`
    : `PGlite en ${path.join(env.dataDir, 'db')}`
  console.log(`Base de datos: ${target}`)
  const directory = path.join(env.dataDir, 'db')
  // A running shop has the embedded database open: a second process writing it corrupts it.
  if (!env.DATABASE_URL) assertPgliteFree(directory)
  const database = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { directory })
  const mediaRoot = path.join(env.dataDir, 'media')
  try {
    if (!(await isCatalogEmpty(database.db))) {
      if (!options.reset) {
        console.error(
          'El catálogo no está vacío: no se cargaron datos. Usa --reset para borrar el catálogo ' +
            '(categorías, productos, imágenes, banners y movimientos de inventario) y volver a cargarlo.',
        )
        process.exitCode = 1
        return
      }
      console.log('Borrando el catálogo actual…')
      await resetCatalogue(database, mediaRoot)
    }
    console.log(`Cargando ${options.products} productos de demostración…`)
    await seedDemoData(database.db, localMediaStorage(mediaRoot), {
      products: options.products,
      video: await loadDemoVideo(),
      log: (message) => console.log(message),
    })
    // Fresh statistics for the planner right away (PostgreSQL's autovacuum would take a while).
    await database.executeSql('analyze')
    console.log(`Listo en ${((performance.now() - started) / 1000).toFixed(1)} s`)
  } finally {
    await database.close()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
