// Finds a Chromium for the browser tests: CHROMIUM_PATH, Debian's /usr/bin/chromium, or installs
// Debian's package when running as root. Otherwise stops and says how to get one.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'

/** Flags that keep Debian's Chromium quiet on a machine without internet (see design.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

const candidates = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
]

export function findChromium() {
  return candidates.find((file) => file && fs.existsSync(file))
}

export function ensureChromium() {
  const found = findChromium()
  if (found) return found
  const isRoot = process.getuid?.() === 0
  const hasApt = spawnSync('which', ['apt-get']).status === 0
  if (isRoot && hasApt) {
    console.log('Chromium no está instalado: instalando el paquete de Debian (apt-get install -y chromium)…')
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' })
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    const installed = findChromium()
    if (installed) return installed
  }
  console.error(
    [
      'Las pruebas de navegador necesitan Chromium y no se encontró.',
      'Instálalo con:  sudo apt-get install -y chromium',
      'o indica uno existente con:  CHROMIUM_PATH=/ruta/a/chromium npm test',
    ].join('\n'),
  )
  process.exit(1)
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureChromium())
