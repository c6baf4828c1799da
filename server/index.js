// Process entry: static assets, the app (built, or through Vite in development) and a clean shutdown.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import compression from 'compression'
import express from 'express'

const dev = process.argv.includes('--dev')
const buildDir = process.env.VITRINA_BUILD_DIR ?? 'build'
const app = express()
app.disable('x-powered-by')
app.set('trust proxy', 'loopback, linklocal, uniquelocal')
app.use(compression())

let runtime
try {
  if (dev) {
    const vite = await import('vite').then((v) => v.createServer({ server: { middlewareMode: true } }))
    app.use(vite.middlewares)
    runtime = await (await vite.ssrLoadModule('./server/app.ts')).start()
  } else {
    app.use('/assets', express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: '1y' }))
    app.use(express.static(`${buildDir}/client`, { maxAge: '1h', index: false }))
    const built = await import(pathToFileURL(path.resolve(buildDir, 'server/index.js')).href)
    runtime = await built.start()
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
app.use(runtime.handler)

const { PORT: port, HOST: host } = runtime.env
const server = app.listen(port, host, () => {
  const address = server.address()
  const shownPort = typeof address === 'object' && address ? address.port : port
  console.log(`Vitrina lista en http://localhost:${shownPort}`)
})

let closing = false
async function shutdown(signal) {
  if (closing) return
  closing = true
  console.log(`${signal}: cerrando…`)
  server.close()
  server.closeAllConnections?.()
  await runtime.shutdown().catch((error) => console.error(error))
  process.exit(0)
}
process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))
