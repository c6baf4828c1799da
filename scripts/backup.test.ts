import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openDatabase } from '#app/db/client.server.ts'
import { seedDemoData } from '#app/demo/demo-data.server.ts'
import { localMediaStorage } from '#app/modules/media/storage.server.ts'

const run = promisify(execFile)
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-backup-cli-'))
const shopDir = path.join(root, 'tienda')
const file = path.join(root, 'copia.tar.gz')

/** The npm script as the owner runs it, on the embedded database of `dataDir`. */
async function npmRun(script: string, args: string[], dataDir: string) {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', S3_BUCKET: '', NODE_ENV: 'development' }
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', script, '--', ...args], { env })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

beforeAll(async () => {
  const database = await openDatabase({ directory: path.join(shopDir, 'db') })
  try {
    await seedDemoData(database.db, localMediaStorage(path.join(shopDir, 'media')), { products: 2 })
  } finally {
    await database.close()
  }
}, 120_000)

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

test('npm run backup and npm run restore carry a shop to another data directory, and say what they did', async () => {
  const backup = await npmRun('backup', [file], shopDir)
  expect(backup.code).toBe(0)
  expect(backup.stdout).toMatch(
    /Copia de seguridad creada: .*copia\.tar\.gz\n {2}\d+ tablas, \d+ filas, \d+ archivos/,
  )

  const target = path.join(root, 'restaurada')
  const restore = await npmRun('restore', [file], target)
  expect(restore.code).toBe(0)
  expect(restore.stdout).toMatch(/Copia restaurada .*\nListo: inicia la tienda con npm start\./)
  expect(fs.readdirSync(path.join(target, 'media')).sort()).toEqual(['banners', 'categories', 'products'])

  const again = await npmRun('restore', [file], target)
  expect(again.code).toBe(1)
  expect(again.stderr).toMatch(/no está vacía .*: no se restauró nada\. Usa --replace/)
}, 120_000)

test('npm run db:move-to-postgres wants a PostgreSQL URL', async () => {
  const moved = await npmRun('db:move-to-postgres', ['mysql://servidor/base'], shopDir)
  expect(moved.code).toBe(1)
  expect(moved.stderr).toMatch(/"mysql:\/\/servidor\/base" no es una URL de PostgreSQL/)
})
