import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { desc, gt } from 'drizzle-orm'
import * as tar from 'tar'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openDatabase, type DatabaseOptions } from '#app/db/client.server.ts'
import { loadDemoVideo, seedDemoData } from '#app/demo/demo-data.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { localMediaStorage } from '#app/modules/media/storage.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { settings } from '#app/modules/settings/schema.ts'
import { recordSettingChange } from '#app/modules/settings/settings.server.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { createScratchDatabase } from '../../../scripts/scratch-database.js'
import { createBackup, moveToPostgres, restoreBackup } from './archive.server.ts'
import { BackupError, openConnection, type ConnectionTarget } from './connection.server.ts'

const serverUrl = process.env.TEST_DATABASE_URL
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-backup-'))
const sourceDir = path.join(root, 'source')
const source = { directory: path.join(sourceDir, 'db') }
const sourceMedia = path.join(sourceDir, 'media')
const backupFile = path.join(root, 'tienda.tar.gz')
let sourceShop: Awaited<ReturnType<typeof shopContents>>
let dirs = 0
const freshDir = (name: string) => path.join(root, `${name}-${++dirs}`)

/** A demo shop with every kind of row the owner cares about, plus values that round-trip badly. */
async function seedShop(target: DatabaseOptions, mediaRoot: string) {
  const database = await openDatabase(target)
  try {
    const { db } = database
    await seedDemoData(db, localMediaStorage(mediaRoot), { products: 6, video: await loadDemoVideo() })
    const [product] = await db
      .select({ sku: products.sku })
      .from(products)
      .where(gt(products.stock, 3))
      .limit(1)
    await placeTestOrder(db, { sku: product!.sku, quantity: 1 })
    await placeTestOrder(db, {
      sku: product!.sku,
      quantity: 2,
      paymentMethod: 'mercadopago',
      phone: '3001112233',
    })
    await db.insert(settings).values({ key: 'shippingCost', value: 12_000_00 })
    await db.transaction((tx) =>
      recordSettingChange(tx, {
        key: 'shippingCost',
        oldValue: null,
        newValue: 12_000_00,
        by: 'dueña@vitrina.test',
      }),
    )
    // bigint past 2^53, a jsonb null apart from SQL NULL, microseconds, quotes and newlines in text.
    await database.executeSql(`
      insert into page_views (month, page_name, visits, total_time_seconds) values ('2026-11', 'inicio', 3, 9007199254740993);
      insert into setting_changes (key, old_value, new_value, changed_by, changed_at)
        values ('nota', 'null'::jsonb, null, 'a"b\\c', '2026-11-20 10:11:12.345678+00');
      insert into consent_log (consent_id, policy_version, analytics, advertising, created_at)
        values (E'línea\\nsegunda', '2026-11', true, false, '2026-11-21 23:59:59.999999-05')`)
  } finally {
    await database.close()
  }
}

/** Every public table's rows in PostgreSQL's own text form, the sequences and the migrations. */
async function shopContents(target: ConnectionTarget) {
  const connection = await openConnection(target)
  try {
    const tables: Record<string, string[]> = {}
    const names = await connection.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
    )
    for (const { name } of names) {
      const rows = await connection.query<{ line: string }>(`select t::text as line from public."${name}" t`)
      tables[name] = rows.map((row) => row.line).sort()
    }
    const sequences = await connection.query(
      "select sequencename, last_value::text from pg_sequences where schemaname = 'public' order by 1",
    )
    const migrations = await connection.query(
      'select hash, created_at::text from drizzle.__drizzle_migrations order by created_at',
    )
    return { tables, sequences, migrations }
  } finally {
    await connection.close()
  }
}

function mediaContents(directory: string) {
  const files: Record<string, string> = {}
  if (!fs.existsSync(directory)) return files
  for (const entry of fs.readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const full = path.join(entry.parentPath, entry.name)
    files[path.relative(directory, full)] = createHash('sha256').update(fs.readFileSync(full)).digest('hex')
  }
  return files
}

beforeAll(async () => {
  await seedShop(source, sourceMedia)
  sourceShop = await shopContents(source)
  await createBackup({ source, mediaDirectory: sourceMedia, file: backupFile, appVersion: 'test' })
}, 120_000)

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

test('the demo shop under test has every kind of row, and its backup is readable by the owner alone', () => {
  for (const table of ['products', 'categories', 'stock_movements', 'orders', 'order_items', 'settings'])
    expect(sourceShop.tables[table]!.length, table).toBeGreaterThan(0)
  for (const table of ['banners', 'media', 'product_locations', 'setting_changes', 'page_views'])
    expect(sourceShop.tables[table]!.length, table).toBeGreaterThan(0)
  expect(Object.keys(mediaContents(sourceMedia)).length).toBeGreaterThan(10)
  expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600)
})

test('a backup restored into an empty data directory gives the same shop; a used one is refused, replaced only when told', async () => {
  const dataDir = freshDir('restored')
  const options = {
    file: backupFile,
    target: { directory: path.join(dataDir, 'db') },
    dataDir,
    mediaDirectory: path.join(dataDir, 'media'),
  }
  const result = await restoreBackup(options)
  expect(result.setAside).toEqual([])
  expect(await shopContents(options.target)).toEqual(sourceShop)
  expect(mediaContents(options.mediaDirectory)).toEqual(mediaContents(sourceMedia))
  expect(fs.readdirSync(dataDir).sort()).toEqual(['db', 'media'])

  await expect(restoreBackup(options)).rejects.toThrow(
    /La base de datos de destino \(PGlite en .*\) no está vacía \(tablas con datos: .*products.*\): no se restauró nada\. Usa --replace/,
  )
  expect(fs.readdirSync(dataDir).sort()).toEqual(['db', 'media'])
  expect(await shopContents(options.target)).toEqual(sourceShop)
  const replaced = await restoreBackup({ ...options, replace: true })
  expect(replaced.setAside).toHaveLength(2)
  for (const aside of replaced.setAside) expect(path.basename(aside)).toMatch(/\.antes-de-restaurar-/)
  expect(await shopContents(options.target)).toEqual(sourceShop)
  expect(mediaContents(options.mediaDirectory)).toEqual(mediaContents(sourceMedia))

  // The app opens it as its own (no migration left to run) and new rows get new ids.
  const database = await openDatabase(options.target)
  try {
    const [last] = await database.db
      .select({ number: orders.number })
      .from(orders)
      .orderBy(desc(orders.number))
    const product = await stockedProduct(database.db, 2)
    const order = await placeTestOrder(database.db, { sku: product.sku, quantity: 1, phone: '3205556677' })
    expect(order.number).toBe(last!.number + 1)
  } finally {
    await database.close()
  }
}, 90_000)

test('media files alone are enough to refuse a restore: nothing is written, not even the database', async () => {
  const mediaOnly = freshDir('media-only')
  fs.mkdirSync(path.join(mediaOnly, 'media'), { recursive: true })
  fs.writeFileSync(path.join(mediaOnly, 'media', 'foto.webp'), 'x')
  await expect(
    restoreBackup({
      file: backupFile,
      target: { directory: path.join(mediaOnly, 'db') },
      dataDir: mediaOnly,
      mediaDirectory: path.join(mediaOnly, 'media'),
    }),
  ).rejects.toThrow(/La carpeta de imágenes .* no está vacía: no se restauró nada/)
  expect(fs.readdirSync(mediaOnly)).toEqual(['media'])
})

describe('a missing, damaged or foreign backup is refused in Spanish and writes nothing', () => {
  async function refusal(file: string) {
    const dataDir = freshDir('refused')
    const error = await restoreBackup({
      file,
      target: { directory: path.join(dataDir, 'db') },
      dataDir,
      mediaDirectory: path.join(dataDir, 'media'),
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(BackupError)
    expect(fs.existsSync(dataDir)).toBe(false)
    return (error as Error).message
  }

  /** The backup unpacked, changed by `edit`, packed again. */
  async function tampered(name: string, edit: (dir: string) => void) {
    const dir = freshDir(name)
    fs.mkdirSync(dir)
    await tar.extract({ file: backupFile, cwd: dir })
    edit(dir)
    const file = `${dir}.tar.gz`
    await tar.create({ gzip: true, file, cwd: dir }, fs.readdirSync(dir))
    return file
  }

  test('missing', async () => {
    expect(await refusal(path.join(root, 'no-existe.tar.gz'))).toMatch(
      /^No existe la copia de seguridad .*no-existe\.tar\.gz\.$/,
    )
  })

  test('cut short', async () => {
    const file = path.join(root, 'cortada.tar.gz')
    fs.writeFileSync(file, fs.readFileSync(backupFile).subarray(0, 4000))
    expect(await refusal(file)).toMatch(
      /no es una copia de seguridad de Vitrina válida o está dañada: no se puede descomprimir/,
    )
  })

  test('a table changed after the backup', async () => {
    const file = await tampered('changed', (dir) => {
      const table = path.join(dir, 'tables', 'products.jsonl')
      // Same length, so only the checksum can tell (the size is checked first).
      const changed = fs.readFileSync(table, 'utf8').replace(/"(\d)(\d*)"/, (_, d: string, rest: string) => {
        return `"${d === '7' ? '8' : '7'}${rest}"`
      })
      fs.writeFileSync(table, changed)
    })
    expect(await refusal(file)).toMatch(/tables\/products\.jsonl no coincide con su suma de control/)
  })

  test('a media file missing', async () => {
    const file = await tampered('no-media', (dir) => {
      fs.rmSync(path.join(dir, 'media', 'banners'), { recursive: true })
    })
    expect(await refusal(file)).toMatch(/falta el archivo media\/banners\//)
  })

  test('no manifest', async () => {
    const file = await tampered('no-manifest', (dir) => fs.rmSync(path.join(dir, 'manifest.json')))
    expect(await refusal(file)).toMatch(/falta el manifiesto/)
  })

  test('from a newer Vitrina', async () => {
    const file = await tampered('newer', (dir) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
      manifest.migrations.push({ tag: '9999_futuro', hash: 'f'.repeat(64), createdAt: 4_000_000_000_000 })
      fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest))
    })
    expect(await refusal(file)).toMatch(
      /más nueva o distinta \(migración 9999_futuro desconocida\): actualiza Vitrina/,
    )
  })
})

test('the embedded database open in another process is named as in use', async () => {
  const database = await openDatabase(source)
  try {
    await expect(
      createBackup({
        source,
        mediaDirectory: null,
        file: path.join(root, 'en-uso.tar.gz'),
        appVersion: 'test',
      }),
    ).rejects.toThrow(
      /está en uso: la tienda \(npm start\) u otro proceso la tiene abierta\. PGlite admite un solo proceso/,
    )
  } finally {
    await database.close()
  }
  expect(fs.existsSync(path.join(root, 'en-uso.tar.gz'))).toBe(false)
})

describe.skipIf(!serverUrl)('on PostgreSQL', () => {
  const scratches: { drop(): Promise<void> }[] = []
  const scratch = async () => {
    const created = await createScratchDatabase(serverUrl!, 'vitrina_backup')
    scratches.push(created)
    return created.url
  }
  afterAll(async () => {
    for (const created of scratches) await created.drop()
  })

  test('backup and restore (into PostgreSQL and PGlite): the same shop; a used database is refused, then replaced when told', async () => {
    const from = { url: await scratch() }
    const media = freshDir('pg-media')
    await seedShop(from, media)
    const file = path.join(root, 'postgres.tar.gz')
    await createBackup({ source: from, mediaDirectory: media, file, appVersion: 'test' })
    const original = await shopContents(from)

    const to = { url: await scratch() }
    const dataDir = freshDir('pg-restored')
    await restoreBackup({ file, target: to, dataDir, mediaDirectory: path.join(dataDir, 'media') })
    expect(await shopContents(to)).toEqual(original)
    expect(mediaContents(path.join(dataDir, 'media'))).toEqual(mediaContents(media))
    // …and into the embedded database: the format is the same for both engines.
    const embedded = freshDir('pg-to-pglite')
    const embeddedDb = { directory: path.join(embedded, 'db') }
    await restoreBackup({
      file,
      target: embeddedDb,
      dataDir: embedded,
      mediaDirectory: path.join(embedded, 'media'),
    })
    expect(await shopContents(embeddedDb)).toEqual(original)

    const again = freshDir('pg-again')
    await expect(
      restoreBackup({
        file: backupFile,
        target: from,
        dataDir: again,
        mediaDirectory: path.join(again, 'media'),
      }),
    ).rejects.toThrow(/La base de datos de destino \(PostgreSQL .*\) no está vacía/)
    expect(await shopContents(from)).toEqual(original)
    await restoreBackup({
      file: backupFile,
      target: from,
      dataDir: again,
      mediaDirectory: path.join(again, 'media'),
      replace: true,
    })
    expect(await shopContents(from)).toEqual(sourceShop)
  }, 90_000)

  test('moves the embedded demo shop into an empty database: every table, sequence and migration', async () => {
    const url = await scratch()
    const workDir = freshDir('move')
    await moveToPostgres({ directory: source.directory, url, workDir })
    expect(await shopContents({ url })).toEqual(sourceShop)
    expect(fs.readdirSync(workDir)).toEqual([])

    const database = await openDatabase({ url })
    try {
      const [last] = await database.db
        .select({ number: orders.number })
        .from(orders)
        .orderBy(desc(orders.number))
      const product = await stockedProduct(database.db, 2)
      const order = await placeTestOrder(database.db, { sku: product.sku, quantity: 1, phone: '3205556677' })
      expect(order.number).toBe(last!.number + 1)
      await database.db.transaction((tx) =>
        recordSettingChange(tx, { key: 'x', oldValue: 1, newValue: 2, by: 'a@b.co' }),
      )
      const [count] = await database
        .executeSql('select count(*)::int as n from setting_changes')
        .then((r) => r.rows as { n: number }[])
      expect(count!.n).toBe(sourceShop.tables.setting_changes!.length + 1)
    } finally {
      await database.close()
    }

    await expect(moveToPostgres({ directory: source.directory, url, workDir })).rejects.toThrow(
      /La base de datos de destino \(PostgreSQL .*\) no está vacía: no se copió nada/,
    )
  })
})

test('the move refuses a directory without a shop', async () => {
  await expect(
    moveToPostgres({
      directory: path.join(root, 'nada', 'db'),
      url: 'postgres://127.0.0.1:1/x',
      workDir: freshDir('none'),
    }),
  ).rejects.toThrow(/No hay ninguna base de datos embebida en .*nada/)
})
