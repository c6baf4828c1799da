import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { openDatabase, type Db } from '#app/db/client.server.ts'
import { authConfigFromEnv, sessionSecret } from '#app/modules/auth/config.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { signedInAs } from '#tests/auth.ts'
import { FAKE_SECRETS } from './fake-secrets.ts'
import { freePort, waitForHealth } from './global-setup.ts'

/** The Node preload that moves the server's clock (`now`). */
const FAKE_CLOCK = path.resolve('tests/e2e/fake-clock.mjs')

export type OwnServer = {
  /** `http://127.0.0.1:{port}` */
  base: string
  /** The owner's session cookie, for `context.addCookies` (with `url: base`). */
  ownerCookie: { name: string; value: string }
  /** What the server printed so far. */
  output(): string
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>
}

/**
 * A shop server of a test file's own, on the e2e build, for what the shared server cannot be
 * (outside services played by stand-ins, a moved clock, orders seeded straight into its database):
 * its own data directory and database, `seed` run on it before the server opens it, an owner
 * (`owner`, on ADMIN_EMAILS) signed in, and `env` on top of a local production-like environment.
 * `now`: the server's clock reads this instant (and keeps ticking), and the owner's session starts
 * then. Call `stop` in `afterAll`.
 */
export async function startOwnServer(options: {
  owner: string
  env?: Record<string, string>
  seed?: (db: Db) => Promise<void>
  now?: string
  /** The data directory's name prefix, so a leftover says whose it is. */
  name: string
}): Promise<OwnServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vitrina-${options.name}-`))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    APP_ENV: 'local',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
    PUBLIC_URL: base,
    ADMIN_EMAILS: options.owner,
    SESSION_SECRET: FAKE_SECRETS.SESSION_SECRET,
    ...(options.now ? { VITRINA_FAKE_NOW: options.now } : {}),
    ...options.env,
  }
  const database = await openDatabase({ directory: path.join(dataDir, 'db') })
  let cookie: string
  try {
    await options.seed?.(database.db)
    const parsed = parseEnv(env)
    const config = authConfigFromEnv(parsed, sessionSecret(parsed))
    const now = options.now ? new Date(options.now) : undefined
    cookie = (await signedInAs(database.db, config, options.owner, { now })).cookie
  } finally {
    await database.close()
  }
  const [name, ...value] = cookie.split('=')
  const ownerCookie = { name: name!, value: value.join('=') }

  let output = ''
  const child: ChildProcess = spawn(
    process.execPath,
    [...(options.now ? ['--import', FAKE_CLOCK] : []), 'server/index.js'],
    {
      env: { ...process.env, ...env, VITRINA_BUILD_DIR: inject('buildDir') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    await waitForHealth(base, child, () => output)
  } catch (error) {
    await stop()
    throw error
  }
  return { base, ownerCookie, output: () => output, stop }
}
