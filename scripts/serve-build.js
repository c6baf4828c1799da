// Child processes for the measuring scripts (bench, lighthouse): a production server on a free
// loopback port from a given build, and a way to stop every child on exit.
import { spawn } from 'node:child_process'
import net from 'node:net'

/** Their own build directory, so measuring never rewrites a build that a running server or test uses. */
export const MEASURE_BUILD_DIR = '.build/bench'

const children = new Set()

/** Runs a Node child to completion, keeping its output for an error message. */
export function run(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) => {
      children.delete(child)
      if (code === 0) resolve(output)
      else reject(new Error(`${args.join(' ')} terminó con código ${code}:\n${output}`))
    })
  })
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * Starts `server/index.js` in production mode from `buildDir` on a free loopback port and waits for
 * /healthz. `env` should carry DATA_DIR (and DATABASE_URL for PostgreSQL); SEED_DEMO defaults to 0.
 * @returns {Promise<{ base: string, stop: () => Promise<void> }>}
 */
export async function startServer(env, buildDir) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['server/index.js'], {
    env: {
      SEED_DEMO: '0',
      ...env,
      NODE_ENV: 'production',
      VITRINA_BUILD_DIR: buildDir,
      APP_ENV: 'local',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: base,
      // Every measured request comes from 127.0.0.1 (checkouts from one phone): the hold and request
      // limits would refuse nearly all of them.
      RATE_LIMIT_SCALE: '1000000',
      COD_MAX_OPEN_ORDERS: '100000000',
      COD_MAX_OPEN_UNITS: '100000000',
      COD_MAX_OPEN_ORDERS_PER_ADDRESS: '100000000',
      COD_MAX_OPEN_UNITS_PER_ADDRESS: '100000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve()
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      child.once('exit', () => {
        clearTimeout(timer)
        children.delete(child)
        resolve()
      })
      child.kill('SIGTERM')
    })
  // A new data directory with demo data takes a while: the seed renders every image.
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`El servidor terminó al arrancar:\n${output}`)
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, stop }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await stop()
  throw new Error(`El servidor no respondió a tiempo:\n${output}`)
}

/** Stops every child still running when the script is interrupted or fails. */
export function killChildren() {
  for (const child of children) child.kill('SIGTERM')
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killChildren()
    process.exit(130)
  })
}
