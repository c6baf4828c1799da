import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'

const run = promisify(execFile)
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-import-cli-'))

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

async function npmRun(script: string, args: string[], dataDir: string, databaseUrl = '') {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    S3_BUCKET: '',
    NODE_ENV: 'development',
  }
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', script, '--', ...args], { env })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/** The embedded database as a running shop leaves it: postmaster.pid while it is open. */
function shopInUse(name: string) {
  const dataDir = path.join(root, name)
  fs.mkdirSync(path.join(dataDir, 'db'), { recursive: true })
  fs.writeFileSync(path.join(dataDir, 'db', 'postmaster.pid'), '-42\n')
  return dataDir
}

test.each([
  ['import', ['export.json']],
  ['db:seed', ['--products', '1']],
])(
  'npm run %s refuses an embedded database the shop has open, and leaves it untouched',
  async (script, args) => {
    const dataDir = shopInUse(script.replace(':', '-'))
    const exportFile = path.join(dataDir, 'export.json')
    fs.writeFileSync(exportFile, '{}')
    const result = await npmRun(
      script,
      args.map((arg) => (arg === 'export.json' ? exportFile : arg)),
      dataDir,
    )
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/está en uso: la tienda \(npm start\) u otro proceso la tiene abierta/)
    expect(fs.readdirSync(path.join(dataDir, 'db'))).toEqual(['postmaster.pid'])
  },
  60_000,
)

test('an unexpected failure is told in Spanish, with the original detail after it', async () => {
  const dataDir = path.join(root, 'sin-servidor')
  fs.mkdirSync(dataDir, { recursive: true })
  const exportFile = path.join(dataDir, 'export.json')
  fs.writeFileSync(exportFile, '{}')
  // Nothing listens on port 1: the driver's own (English) error.
  const result = await npmRun('import', [exportFile], dataDir, 'postgres://postgres@127.0.0.1:1/tienda')
  expect(result.code).toBe(1)
  expect(result.stderr).toMatch(
    /^La importación se detuvo por un error inesperado: no se importó nada\. Detalle: .*ECONNREFUSED/m,
  )
}, 60_000)
