// Process entry: static assets, the app (built, or through Vite in development) and a clean shutdown.
// On PostgreSQL a production start runs one web process per core (WEB_CONCURRENCY); the first one
// also runs the background jobs. The embedded database (PGlite) is one process.
import cluster from 'node:cluster'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import compression from 'compression'
import express from 'express'
import expressStaticGzip from 'express-static-gzip'
import { logger } from './logger.js'
import { closeGracefully } from './shutdown.js'

const dev = process.argv.includes('--dev')
const buildDir = process.env.VITRINA_BUILD_DIR ?? 'build'
/** Set by the primary on each web process it starts: `jobs` for the one that runs them, else `web`. */
const ROLE_VARIABLE = 'VITRINA_PROCESS_ROLE'
/** How long a stopping process waits for the requests in flight before cutting them. */
const SHUTDOWN_GRACE_MS = 10_000

/** How many web processes: WEB_CONCURRENCY, or one per core on PostgreSQL; always one on PGlite. */
function webProcessCount() {
  const asked = process.env.WEB_CONCURRENCY
  const count = Number(asked)
  if (asked && !(Number.isInteger(count) && count >= 1)) {
    logger.fatal(`WEB_CONCURRENCY debe ser un número entero mayor que 0 (recibido: ${asked})`)
    process.exit(1)
  }
  if (dev) return 1
  if (!process.env.DATABASE_URL) {
    if (count > 1) {
      logger.warn('WEB_CONCURRENCY se ignora sin DATABASE_URL: la base integrada atiende un solo proceso.')
    }
    return 1
  }
  return asked ? count : os.availableParallelism()
}

const processCount = cluster.isPrimary ? webProcessCount() : 1
if (processCount > 1) {
  await runPrimary(processCount)
} else {
  await runWebProcess(process.env[ROLE_VARIABLE] !== 'web')
}

/**
 * Starts the job-running process first (it applies migrations and may seed the demo shop), then the
 * others; restarts any that dies; on SIGTERM/SIGINT stops them all and waits for them.
 */
async function runPrimary(count) {
  let closing = false
  const roles = new Map()
  const fork = (role) => {
    const worker = cluster.fork({ [ROLE_VARIABLE]: role })
    roles.set(worker.id, role)
    return worker
  }
  cluster.on('exit', (worker, code, signal) => {
    const role = roles.get(worker.id)
    roles.delete(worker.id)
    if (closing) {
      if (roles.size === 0) process.exit(0)
      return
    }
    logger.error(`Un proceso web terminó (${signal ?? code}); iniciando otro…`)
    setTimeout(() => fork(role), 1000)
  })
  const first = fork('jobs')
  await new Promise((resolve, reject) => {
    first.once('listening', resolve)
    first.once('exit', (code) => reject(new Error(`El primer proceso terminó al arrancar (código ${code})`)))
  }).catch((error) => {
    logger.fatal(error.message)
    process.exit(1)
  })
  const others = Array.from({ length: count - 1 }, () => fork('web'))
  await Promise.all(others.map((worker) => new Promise((resolve) => worker.once('listening', resolve))))
  logger.info(`${count} procesos web atendiendo (WEB_CONCURRENCY)`)
  const shutdown = (signal) => {
    if (closing) return
    closing = true
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal)
    if (roles.size === 0) process.exit(0)
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

async function runWebProcess(jobs) {
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', 'loopback, linklocal, uniquelocal')
  app.use(compression())

  let runtime
  try {
    if (dev) {
      const vite = await import('vite').then((v) => v.createServer({ server: { middlewareMode: true } }))
      app.use(vite.middlewares)
      runtime = await (await vite.ssrLoadModule('./server/app.ts')).start({ jobs, dev: true })
    } else {
      const built = await import(pathToFileURL(path.resolve(buildDir, 'server/index.js')).href)
      runtime = await built.start({ jobs })
      // Static files carry the same security headers as pages.
      app.use(runtime.securityHeaders)
      // The build's Brotli and gzip copies of each file (vite.config.ts), as the browser accepts.
      app.use(
        '/assets',
        expressStaticGzip(`${buildDir}/client/assets`, {
          enableBrotli: true,
          orderPreference: ['br', 'gzip'],
          index: false,
          serveStatic: { immutable: true, maxAge: '1y' },
        }),
      )
      app.use(express.static(`${buildDir}/client`, { maxAge: '1h', index: false }))
    }
  } catch (error) {
    logger.fatal(error instanceof Error ? error.message : String(error))
    process.exit(1)
  }
  app.use(runtime.handler)

  const { PORT: port, HOST: host } = runtime.env
  const server = app.listen(port, host, () => {
    const address = server.address()
    const shownPort = typeof address === 'object' && address ? address.port : port
    if (jobs) logger.info(`Vitrina lista en http://localhost:${shownPort}`)
  })

  let closing = false
  // Stops taking requests, finishes those in flight, then the jobs running (pg-boss waits for
  // them) and the database.
  async function shutdown(signal) {
    if (closing) return
    closing = true
    if (jobs) logger.info(`${signal}: cerrando…`)
    await closeGracefully(server, SHUTDOWN_GRACE_MS)
    await runtime.shutdown().catch((error) => logger.error({ err: error }, 'Error al cerrar'))
    process.exit(0)
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}
