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

test('a dry run reads the export as it streams: progress in Spanish on stderr, the report on stdout', async () => {
  const dataDir = path.join(root, 'simulacion')
  fs.mkdirSync(dataDir, { recursive: true })
  const sample = path.resolve(import.meta.dirname, '../docs/import/sample-export.json')
  const result = await npmRun('import', [sample, '--dry-run'], dataDir)
  expect(result.stderr).not.toMatch(/Error|at \//)
  expect(result.code).toBe(0)
  expect(result.stdout).toMatch(/^Simulación \(--dry-run\): no se guardó nada\.$/m)
  expect(result.stdout).toMatch(/^Se importarían: 2 categorías, 2 productos/m)
  expect(result.stdout).toMatch(/^Se descargarían 3 archivos de productos\.$/m)
  expect(result.stdout).not.toMatch(/^Archivos:/m)
  const progress = result.stderr.trim().split('\n')
  expect(progress[0]).toMatch(/^Leyendo la exportación \([\d,]+ MB\)…$/)
  expect(progress).toEqual(
    expect.arrayContaining(['Productos: 0 de 2', 'Pedidos: 0 de 2', 'Guardando clics y visitas…']),
  )
}, 120_000)

test.each([
  [
    'cut short',
    '{"productos/categorias": {"categorias": [',
    /^No se pudo leer .*\.json como JSON: el archivo no es un JSON válido: se corta antes de terminar \(¿se copió o se descargó a medias\?\)\. Detalle técnico: Parser /m,
  ],
  [
    'not JSON',
    '{"productos/categorias": {"categorias": [], x}',
    /^No se pudo leer .*\.json como JSON: el archivo no es un JSON válido: tiene un error de sintaxis \(un signo que sobra o que falta\)\. Detalle técnico: Parser /m,
  ],
  [
    'a list',
    '[{"a": 1}]',
    /^.*\.json no es una exportación: debe ser un objeto JSON con una clave por documento\.$/m,
  ],
])(
  'an export that is %s is refused in Spanish, with nothing imported',
  async (_, text, message) => {
    const dataDir = path.join(root, `mal-${text.length}`)
    fs.mkdirSync(dataDir, { recursive: true })
    const exportFile = path.join(dataDir, 'export.json')
    fs.writeFileSync(exportFile, text)
    const result = await npmRun('import', [exportFile], dataDir)
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(message)
    expect(result.stdout).toBe('')
  },
  120_000,
)
