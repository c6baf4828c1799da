// `npm start`: build when the build is missing or older than the sources, then run the server.
import { spawn } from 'node:child_process'
import { buildIfStale } from './build-if-stale.js'

const buildDir = process.env.VITRINA_BUILD_DIR ?? 'build'
try {
  buildIfStale(buildDir)
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}

const child = spawn(process.execPath, ['server/index.js'], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production', VITRINA_BUILD_DIR: buildDir },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))
