// Builds the app into `buildDir` when that build is missing or older than the sources.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

function newestMtime(dir) {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs)
  }
  return newest
}

const SOURCES = ['app', 'server', 'public']
const CONFIG_FILES = ['package.json', 'vite.config.ts', 'react-router.config.ts']

export function buildIfStale(buildDir, { quiet = false } = {}) {
  const built = path.join(buildDir, 'server/index.js')
  const newestSource = Math.max(
    ...SOURCES.filter((dir) => fs.existsSync(dir)).map(newestMtime),
    ...CONFIG_FILES.map((file) => fs.statSync(file).mtimeMs),
  )
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= newestSource) return
  console.log('Compilando la tienda…')
  const result = spawnSync('npx', ['react-router', 'build'], {
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    env: { ...process.env, VITRINA_BUILD_DIR: buildDir },
  })
  if (result.status !== 0) throw new Error('La compilación falló')
}
