import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { DIFFERENCES_BATCH, syncAllProducts } from '#app/modules/channels/admin-channels.server.ts'
import { channelSyncs } from '#app/modules/channels/schema.ts'
import { channelCredentials } from '#app/modules/channels/schema.ts'
import { buildServices, type Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { clearJobs, queuedJobs, setupJobQueue } from '#tests/jobs.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import {
  FIRST_REFRESH_TOKEN,
  STAND_IN_CLIENT_ID,
  STAND_IN_CLIENT_SECRET,
  STAND_IN_SELLER_ID,
  startMercadoLibreStandIn,
} from '#tests/stand-ins/mercadolibre.ts'
import { testServices } from '#tests/services.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import * as channels from './channels.tsx'

/** /admin/canales: per channel, the last push per SKU, "Reintentar" and "Revisar diferencias". */

const BASE = 'http://127.0.0.1:5561'
const t = setupTestDatabase()
let services: Services
const jobs = setupJobQueue(() => t.database)
const mercadoLibre = standInForFile(startMercadoLibreStandIn)

let cookie = ''
let csrfToken = ''
const config = testAuthConfig(BASE)

beforeAll(async () => {
  ;({ cookie, csrfToken } = await signedInAs(t.db, config, ADMIN_EMAIL))
})

beforeEach(async () => {
  await clearJobs(t.database)
  await t.db.delete(channelSyncs)
  await t.db.delete(channelCredentials)
})

/** MercadoLibre configured against its stand-in; Shopify left off. */
function useMercadoLibre() {
  const env = parseEnv({
    SESSION_SECRET: 's'.repeat(32),
    ML_API_URL: mercadoLibre().url,
    ML_CLIENT_ID: STAND_IN_CLIENT_ID,
    ML_CLIENT_SECRET: STAND_IN_CLIENT_SECRET,
    ML_REFRESH_TOKEN: FIRST_REFRESH_TOKEN,
    ML_ACCESS_TOKEN: mercadoLibre().grantAccessToken(),
    ML_SELLER_ID: STAND_IN_SELLER_ID,
  })
  services = buildServices(env, t.database, jobs.queue, { auth: config })
}

const load = (query = '', headers: Record<string, string> = { Cookie: cookie }) =>
  asAdminRoute(channels.loader, {
    request: new Request(`${BASE}/admin/canales${query}`, { headers }),
    url: new URL(`${BASE}/admin/canales${query}`),
    params: {},
    context: routeContext(services),
  } as never)

async function post(fields: Record<string, string>, options: { csrf?: boolean } = {}) {
  const form = new FormData()
  if (options.csrf !== false) form.set('csrf', csrfToken)
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  const request = new Request(`${BASE}/admin/canales`, {
    method: 'POST',
    body: form,
    headers: { Cookie: cookie, Origin: BASE },
  })
  return asAdminRoute(channels.action, { request, params: {}, context: routeContext(services) })
}

/** The outcome of an action that answered with `data(…, { status })` or a plain object. */
const outcome = (answer: unknown) =>
  ((answer as { data?: unknown }).data ?? answer) as { ok: boolean; message: string; report?: unknown }
const statusOf = (answer: unknown) => (answer as { init?: { status?: number } }).init?.status ?? 200

async function render(query = '') {
  const loaderData = await load(query)
  const Page = channels.default as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'page', path: '/admin/canales', Component: Page, loader: () => loaderData },
  ])
  return renderToString(
    <Stub initialEntries={[`/admin/canales${query}`]} hydrationData={{ loaderData: { page: loaderData } }} />,
  )
}

test('only a signed-in admin sees the page', async () => {
  services = testServices({ database: t.database, auth: config })
  await expect(load('', {})).rejects.toBeInstanceOf(Response)
})

test('shows each channel configured or not, and the last sync per SKU with its result', async () => {
  useMercadoLibre()
  await t.db.insert(channelSyncs).values([
    { channel: 'mercadolibre', sku: 'COL-ABC-1', status: 'ok', quantity: 4, message: 'MCO1' },
    {
      channel: 'mercadolibre',
      sku: 'ARE-XYZ-2',
      status: 'failed',
      quantity: 2,
      message: 'MercadoLibre respondió 503 tras 4 intentos',
    },
    { channel: 'shopify', sku: 'COL-ABC-1', status: 'skipped', message: 'Shopify no está configurado' },
  ])
  const html = await render()
  expect(html).toMatch(/data-testid="channel-mercadolibre".*Configurado/s)
  expect(html).toMatch(/data-testid="channel-shopify".*No configurado/s)
  expect(html).toContain('MercadoLibre respondió 503 tras 4 intentos')
  expect(html.match(/data-testid="sync-row"/g)).toHaveLength(2)
  expect(html).toContain('Revisar diferencias')

  const searched = await render('?sku=col&estado=ok')
  expect(searched.match(/data-testid="sync-row"/g)).toHaveLength(1)
  expect(searched).toContain('COL-ABC-1')

  const shopify = await load('?canal=shopify')
  expect(shopify.syncs.rows.map((row) => row.message)).toEqual(['Shopify no está configurado'])
})

test('the list is paged', async () => {
  useMercadoLibre()
  await t.db.insert(channelSyncs).values(
    Array.from({ length: 30 }, (_, i) => ({
      channel: 'mercadolibre',
      sku: `SKU-${String(i).padStart(2, '0')}`,
      status: 'ok' as const,
      quantity: i,
      at: new Date(Date.UTC(2026, 0, 1, 0, i)),
    })),
  )
  const first = await load()
  expect(first.syncs.rows).toHaveLength(25)
  expect(first.syncs.rows[0]!.sku).toBe('SKU-29')
  const second = await load('?desde=25')
  expect(second.syncs.rows.map((row) => row.sku)).toEqual(['SKU-04', 'SKU-03', 'SKU-02', 'SKU-01', 'SKU-00'])
})

test('junk in the query string reads as the defaults, never a 500', async () => {
  useMercadoLibre()
  const page = await load('?canal=amazon&estado=%00&desde=-5&sku=' + 'x'.repeat(500))
  expect(page.query).toEqual({ canal: 'mercadolibre', sku: '', estado: 'todos' })
  expect(page.syncs.offset).toBe(0)
})

describe('Reintentar', () => {
  test('queues the sync job for that channel and SKU', async () => {
    useMercadoLibre()
    const product = await createProduct(t.db, { stock: 3 })
    const answer = outcome(await post({ intent: 'reintentar', canal: 'mercadolibre', sku: product.sku }))
    expect(answer).toMatchObject({
      ok: true,
      message: `Sincronización de ${product.sku} con MercadoLibre en cola.`,
    })
    expect(await queuedJobs(t.database, 'channel-stock-sync')).toEqual([
      { channel: 'mercadolibre', sku: product.sku },
    ])
  })

  test('a channel that is not configured, an unknown SKU or bad input: a Spanish refusal and nothing queued', async () => {
    useMercadoLibre()
    const product = await createProduct(t.db, { stock: 3 })
    const cases: [Record<string, string>, number, string][] = [
      [{ intent: 'reintentar', canal: 'shopify', sku: product.sku }, 409, 'Shopify no está configurado'],
      [{ intent: 'reintentar', canal: 'mercadolibre', sku: 'NO-EXISTE-1' }, 404, 'No existe un producto'],
      [{ intent: 'reintentar', canal: 'amazon', sku: product.sku }, 400, 'La solicitud no es válida'],
      [{ intent: 'reintentar', canal: 'mercadolibre', sku: '' }, 400, 'La solicitud no es válida'],
      [{ intent: 'borrar-todo' }, 400, 'La solicitud no es válida'],
    ]
    for (const [fields, status, message] of cases) {
      const answer = await post(fields)
      expect(statusOf(answer)).toBe(status)
      expect(outcome(answer).ok).toBe(false)
      expect(outcome(answer).message).toContain(message)
    }
    expect(await queuedJobs(t.database, 'channel-stock-sync')).toEqual([])
  })

  test('a post without the anti-forgery token is refused', async () => {
    useMercadoLibre()
    await expect(
      post({ intent: 'reintentar', canal: 'mercadolibre', sku: 'X' }, { csrf: false }),
    ).rejects.toBeDefined()
  })
})

type Report = {
  first: number
  last: number
  total: number
  checked: number
  next: string | null
  differences: { sku: string; available: number; channel: number }[]
  unchecked: { sku: string; reason: string }[]
}

/** Presses "Revisar diferencias", then "Revisar siguientes" until the last batch. */
async function checkAllBatches(canal: string) {
  const reports: Report[] = []
  let desde = ''
  for (;;) {
    const answer = outcome(await post({ intent: 'diferencias', canal, desde }))
    expect(answer.ok).toBe(true)
    const report = answer.report as Report
    const compared = report.checked - report.unchecked.length
    expect(answer.message).toBe(
      compared === 0
        ? `Ninguno de los ${report.checked} productos revisados tiene en el canal una cantidad para comparar.`
        : report.differences.length === 0
          ? `Sin diferencias: los ${compared} SKU revisados tienen en el canal las mismas unidades disponibles que en la tienda.`
          : `${report.differences.length} de ${compared} SKU revisados tienen otra cantidad en el canal.`,
    )
    reports.push(report)
    if (report.next === null) return reports
    desde = report.next
  }
}

test('Revisar diferencias checks every product, pushed before or not, in batches of 25 by SKU', async () => {
  useMercadoLibre()
  const same = await createProduct(t.db, { stock: 5, reserved: 1 })
  const neverPushed = await createProduct(t.db, { stock: 9, reserved: 0 })
  const unlisted = await createProduct(t.db, { stock: 2 })
  for (let i = 0; i < 26; i++) await createProduct(t.db, { stock: 1 })
  mercadoLibre().addItem('MCO1', same.sku, 4)
  mercadoLibre().addItem('MCO2', neverPushed.sku, 3)
  await t.db.insert(channelSyncs).values([
    { channel: 'mercadolibre', sku: same.sku, status: 'ok', quantity: 4 },
    { channel: 'mercadolibre', sku: unlisted.sku, status: 'not-listed', quantity: 2 },
  ])

  const reports = await checkAllBatches('mercadolibre')
  const everySku = (await t.db.select({ sku: products.sku }).from(products)).map((row) => row.sku).sort()
  expect(reports.length).toBe(Math.ceil(everySku.length / DIFFERENCES_BATCH))
  expect(reports.every((report) => report.checked <= DIFFERENCES_BATCH)).toBe(true)
  expect(reports.map((report) => [report.first, report.last, report.total])).toEqual(
    reports.map((_, i) => [
      i * DIFFERENCES_BATCH + 1,
      Math.min((i + 1) * DIFFERENCES_BATCH, everySku.length),
      everySku.length,
    ]),
  )
  expect(reports.flatMap((report) => report.differences)).toEqual([
    { sku: neverPushed.sku, available: 9, channel: 3 },
  ])
  const unchecked = reports.flatMap((report) => report.unchecked)
  expect(unchecked.map((item) => item.sku).sort()).toEqual(
    everySku.filter((sku) => sku !== same.sku && sku !== neverPushed.sku),
  )
  expect(unchecked.find((item) => item.sku === unlisted.sku)!.reason).toBe('sin publicación')
  // Read only: nothing was written to the channel.
  expect(mercadoLibre().requests.some((request) => request.method === 'PUT')).toBe(false)

  const off = await post({ intent: 'diferencias', canal: 'shopify' })
  expect(statusOf(off)).toBe(409)
})

describe('Sincronizar todo', () => {
  test('queues the sync of every product with that channel and says how many', async () => {
    useMercadoLibre()
    await createProduct(t.db, { stock: 3 })
    await t.db.insert(channelSyncs).values({ channel: 'mercadolibre', sku: 'OTRO-1', status: 'ok' })
    const everySku = (await t.db.select({ sku: products.sku }).from(products)).map((row) => row.sku).sort()
    expect((await load()).summaries[0]!.neverSynced).toBe(everySku.length)
    expect(await render()).toContain(`${everySku.length} productos nunca se han enviado.`)

    const answer = outcome(await post({ intent: 'sincronizar-todo', canal: 'mercadolibre' }))
    expect(answer).toMatchObject({
      ok: true,
      message: `Sincronización de ${everySku.length} productos con MercadoLibre en cola.`,
    })
    const queued = await queuedJobs<{ channel: string; sku: string }>(t.database, 'channel-stock-sync')
    expect(queued.every((job) => job.channel === 'mercadolibre')).toBe(true)
    expect(queued.map((job) => job.sku).sort()).toEqual(everySku)

    // Pressed again while those wait: the jobs coalesce, one per SKU still.
    await post({ intent: 'sincronizar-todo', canal: 'mercadolibre' })
    expect(await queuedJobs(t.database, 'channel-stock-sync')).toHaveLength(everySku.length)
  })

  test('goes through the products in batches, each in its own transaction, missing none', async () => {
    useMercadoLibre()
    for (let i = 0; i < 5; i++) await createProduct(t.db, { stock: 1 })
    const everySku = (await t.db.select({ sku: products.sku }).from(products)).map((row) => row.sku).sort()
    const sent = recordingJobQueue()
    const message = await syncAllProducts(
      { db: t.db, jobs: sent, channels: { mercadolibre: services.channels.mercadolibre! } },
      'mercadolibre',
      2,
    )
    expect(message).toBe(`Sincronización de ${everySku.length} productos con MercadoLibre en cola.`)
    expect(sent.sent.map((job) => (job.data as { sku: string }).sku).sort()).toEqual(everySku)
  })

  test('a channel that is not configured is refused and nothing is queued', async () => {
    useMercadoLibre()
    await createProduct(t.db, { stock: 3 })
    const answer = await post({ intent: 'sincronizar-todo', canal: 'shopify' })
    expect(statusOf(answer)).toBe(409)
    expect(outcome(answer).message).toBe('Shopify no está configurado: no hay nada que sincronizar.')
    expect(await queuedJobs(t.database, 'channel-stock-sync')).toEqual([])
  })
})
