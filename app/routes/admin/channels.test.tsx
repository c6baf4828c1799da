import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { channelSyncs } from '#app/modules/channels/schema.ts'
import { channelCredentials } from '#app/modules/channels/schema.ts'
import { buildServices, useServices } from '#app/services.server.ts'
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
import * as channels from './channels.tsx'

/** /admin/canales: per channel, the last push per SKU, "Reintentar" and "Revisar diferencias". */

const BASE = 'http://127.0.0.1:5561'
const t = setupTestDatabase()
const jobs = setupJobQueue(() => t.database)
const mercadoLibre = standInForFile(startMercadoLibreStandIn)

let cookie = ''
let csrfToken = ''
const config = testAuthConfig(BASE)

beforeAll(async () => {
  ;({ cookie, csrfToken } = await signedInAs(t.db, config, ADMIN_EMAIL))
})
afterAll(() => useServices(undefined))

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
  useServices(buildServices(env, t.database, jobs.queue, { auth: config }))
}

const load = (query = '', headers: Record<string, string> = { Cookie: cookie }) =>
  channels.loader({
    request: new Request(`${BASE}/admin/canales${query}`, { headers }),
    url: new URL(`${BASE}/admin/canales${query}`),
    params: {},
    context: {},
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
  return channels.action({ request, params: {}, context: {} } as never)
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
  useServices(testServices({ database: t.database, auth: config }))
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

test('Revisar diferencias lists the SKUs whose channel quantity differs from the available units', async () => {
  useMercadoLibre()
  const same = await createProduct(t.db, { stock: 5, reserved: 1 })
  const differs = await createProduct(t.db, { stock: 9, reserved: 0 })
  const unlisted = await createProduct(t.db, { stock: 2 })
  mercadoLibre().addItem('MCO1', same.sku, 4)
  mercadoLibre().addItem('MCO2', differs.sku, 3)
  await t.db.insert(channelSyncs).values([
    { channel: 'mercadolibre', sku: same.sku, status: 'ok', quantity: 4 },
    { channel: 'mercadolibre', sku: differs.sku, status: 'ok', quantity: 9 },
    { channel: 'mercadolibre', sku: unlisted.sku, status: 'not-listed', quantity: 2 },
  ])
  const answer = outcome(await post({ intent: 'diferencias', canal: 'mercadolibre' }))
  expect(answer).toMatchObject({
    ok: true,
    message: '1 de 2 SKU revisados tienen otra cantidad en el canal.',
    report: {
      checked: 2,
      truncated: false,
      differences: [{ sku: differs.sku, available: 9, channel: 3 }],
      unchecked: [],
    },
  })
  // Read only: nothing was written to the channel.
  expect(mercadoLibre().requests.some((request) => request.method === 'PUT')).toBe(false)

  const off = await post({ intent: 'diferencias', canal: 'shopify' })
  expect(statusOf(off)).toBe(409)
})
