import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '#app/db/client.server.ts'
import { loadDemoVideo, seedDemoData } from '#app/demo/demo-data.server.ts'
import { inventoryTotals, type InventoryTotals } from '#app/modules/inventory/totals.server.ts'
import { localMediaStorage } from '#app/modules/media/storage.server.ts'
import { startMetaStandIn } from '../stand-ins/meta.ts'
import { FAKE_SECRETS } from './fake-secrets.ts'
import {
  createE2EFixtures,
  createE2EPromotions,
  readCatalogFacts,
  STORE,
  type CatalogFacts,
} from './fixtures.ts'
import { freePort } from '../free-port.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
    catalog: CatalogFacts
    inventoryTotals: InventoryTotals
    /** Origin of the local Meta (pixel script and Graph API); `GET /__seen` lists what it got. */
    metaStandIn: string
    /** The build the server runs, for tests that start a server of their own on it. */
    buildDir: string
  }
}

export { freePort }

export async function waitForHealth(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`El servidor de pruebas terminó:\n${log()}`)
    try {
      if ((await fetch(`${url}/healthz`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`El servidor de pruebas no respondió a tiempo:\n${log()}`)
}

/** Builds the app, prepares a shop with demo data and known fixtures, and starts the real server. */
export default async function setup(project: TestProject) {
  // A build directory of this run's own: a running `npm start` keeps its `build/`, and two test
  // runs at once do not rewrite each other's build.
  const ownBuild = !process.env.VITRINA_BUILD_DIR
  const buildDir = process.env.VITRINA_BUILD_DIR ?? `.build/e2e-${process.pid}`
  const build = spawnSync('npx', ['react-router', 'build'], {
    encoding: 'utf8',
    // The secrets' fake values in the build's environment too: none may be built into a file.
    env: { ...process.env, ...FAKE_SECRETS, VITRINA_BUILD_DIR: buildDir },
  })
  if (build.status !== 0) throw new Error(`La compilación falló:\n${build.stdout}\n${build.stderr}`)

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-e2e-'))
  const database = await openDatabase({ directory: path.join(dataDir, 'db') })
  const mediaStorage = localMediaStorage(path.join(dataDir, 'media'))
  await seedDemoData(database.db, mediaStorage, { video: await loadDemoVideo() })
  await createE2EFixtures(database.db, mediaStorage)
  await createE2EPromotions(database.db)
  const catalog = await readCatalogFacts(database.db)
  const totals = await inventoryTotals(database.db)
  await database.close()

  // Meta played locally: the pixel loads only for shoppers who accept advertising.
  const meta = await startMetaStandIn()
  const port = await freePort()
  let output = ''
  const child = spawn(process.execPath, ['server/index.js'], {
    env: {
      ...process.env,
      VITRINA_BUILD_DIR: buildDir,
      NODE_ENV: 'production',
      APP_ENV: 'local',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      REDIRECT_HOSTS: 'viejo.localhost',
      WHATSAPP_CONTACT_NUMBER: STORE.whatsappNumber,
      SHIPPING_COST: String(STORE.shippingCost),
      FREE_SHIPPING_THRESHOLD: String(STORE.freeShippingThreshold),
      SELLER_LEGAL_NAME: STORE.sellerLegalName,
      SELLER_NIT: STORE.sellerNit,
      SELLER_EMAIL: STORE.sellerEmail,
      SELLER_ADDRESS: STORE.sellerAddress,
      DELIVERY_TIME: STORE.deliveryTime,
      // Every browser test checks out from 127.0.0.1, mostly with one phone: the hold limits are
      // proven by their own tests, not by the whole suite's orders.
      COD_MAX_OPEN_ORDERS: '100000',
      COD_MAX_OPEN_UNITS: '1000000',
      COD_MAX_OPEN_ORDERS_PER_ADDRESS: '100000',
      COD_MAX_OPEN_UNITS_PER_ADDRESS: '1000000',
      // Likewise the per-client request limits (checkout, sign-in, search, uploads): their own tests.
      RATE_LIMIT_SCALE: '1000',
      META_PIXEL_ID: meta.pixelId,
      META_PIXEL_SCRIPT_URL: meta.scriptUrl,
      META_CAPI_TOKEN: meta.token,
      META_API_URL: meta.url,
      META_TEST_EVENT_CODE: 'TEST_E2E',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const baseURL = `http://127.0.0.1:${port}`
  await waitForHealth(baseURL, child, () => output)
  project.provide('baseURL', baseURL)
  project.provide('catalog', catalog)
  project.provide('inventoryTotals', totals)
  project.provide('metaStandIn', meta.origin)
  project.provide('buildDir', path.resolve(buildDir))

  return async () => {
    child.kill('SIGTERM')
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
    await meta.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
    if (ownBuild) fs.rmSync(buildDir, { recursive: true, force: true })
  }
}
