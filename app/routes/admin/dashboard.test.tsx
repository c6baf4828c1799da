import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, describe, expect, test } from 'vitest'
import { createOrder } from '#tests/factories.ts'
import type { Services } from '#app/services.server.ts'
import { FORBIDDEN_CHARACTER_MESSAGE } from '#app/utils/forms.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { setupJobQueue } from '#tests/jobs.ts'
import { testServices } from '#tests/services.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import * as dashboard from './dashboard.tsx'
import { FAILED_JOB_MESSAGES, listFailedJobs } from '#app/jobs/dead-letters.server.ts'

/** The dashboard shows the background jobs that ran out of retries (pg-boss dead-letter queue). */

const BASE = 'http://127.0.0.1:5558'
const t = setupTestDatabase()
let services: Services

test('before the job queue exists there is nothing to show (and no error)', async () => {
  expect(await listFailedJobs(t.database)).toEqual({ items: [], total: 0 })
})

describe('with the job queue', () => {
  const jobs = setupJobQueue(() => t.database)
  let cookie = ''
  let csrfToken = ''

  beforeAll(async () => {
    const config = testAuthConfig(BASE)
    services = testServices({ database: t.database, auth: config })
    ;({ cookie, csrfToken } = await signedInAs(t.db, config, ADMIN_EMAIL))
  })

  /** Sends a job that may not retry, takes it as a worker would, and fails it. */
  async function failJob(
    name: 'order-new-notice' | 'payment-notification' | 'channel-stock-sync',
    data: object,
    error: string,
  ) {
    await jobs.boss.send(name, data, { retryLimit: 0 })
    // A job is offered once its start time has passed; on a loaded machine the first fetch can
    // come in the same instant, so look again until it is offered.
    for (let tries = 0; ; tries++) {
      const [job] = await jobs.boss.fetch(name)
      if (job) {
        await jobs.boss.fail(name, job.id, new Error(error))
        return
      }
      if (tries === 50) throw new Error(`La tarea ${name} no se ofreció`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  test('a WhatsApp notice that never went out shows on the dashboard', async () => {
    const order = await createOrder(t.db, { id: 'orden-aviso-fallido' })
    const render = async () => {
      const request = new Request(`${BASE}/admin`, { headers: { Cookie: cookie } })
      const loaderData = await asAdminRoute(dashboard.loader, {
        request,
        params: {},
        context: routeContext(services),
      })
      const Page = dashboard.default as unknown as React.ComponentType
      const Stub = createRoutesStub([
        { id: 'page', path: '/admin', Component: Page, loader: () => loaderData },
      ])
      return renderToString(
        <Stub initialEntries={['/admin']} hydrationData={{ loaderData: { page: loaderData } }} />,
      )
    }
    expect(await render()).toContain('No hay tareas fallidas.')

    await failJob('order-new-notice', { orderId: order!.id, to: '573001112233' }, 'WhatsApp respondió 131056')
    await failJob('payment-notification', { eventId: 'e1', paymentId: '987654' }, 'Mercado Pago no responde')

    const failed = await listFailedJobs(t.database)
    expect(failed.total).toBe(2)
    expect(failed.items.map((item) => [item.description, item.error])).toEqual(
      expect.arrayContaining([
        [`Aviso de WhatsApp del pedido #${order!.number} a 573001112233`, 'WhatsApp respondió 131056'],
        ['Notificación de pago de Mercado Pago 987654', 'Mercado Pago no responde'],
      ]),
    )
    expect(failed.items[0]!.failedAt).toBeInstanceOf(Date)

    const html = await render()
    expect(html).not.toContain('No hay tareas fallidas.')
    expect(html).toContain(`Aviso de WhatsApp del pedido #${order!.number} a 573001112233`)
    expect(html).toContain('WhatsApp respondió 131056')
    expect(html.match(/data-testid="failed-job"/g)).toHaveLength(2)
    expect(html.match(/Marcar como revisada/g)).toHaveLength(2)
  })

  test('a stock sync that ran out of retries says which SKU and channel', async () => {
    await failJob(
      'channel-stock-sync',
      { channel: 'mercadolibre', sku: 'COL-ABC-1' },
      'MercadoLibre respondió 503',
    )
    const failed = await listFailedJobs(t.database)
    expect(failed.items.map((item) => [item.description, item.error])).toContainEqual([
      'Sincronización del stock de COL-ABC-1 con MercadoLibre',
      'MercadoLibre respondió 503',
    ])
  })

  async function dismiss(jobId: string) {
    const form = new FormData()
    form.set('csrf', csrfToken)
    form.set('intent', 'revisada')
    form.set('jobId', jobId)
    const request = new Request(`${BASE}/admin`, {
      method: 'POST',
      body: form,
      headers: { Cookie: cookie, Origin: BASE },
    })
    return asAdminRoute(dashboard.action, { request, params: {}, context: routeContext(services) })
  }

  test('"Marcar como revisada" takes a failed job off the list, once', async () => {
    await failJob('payment-notification', { eventId: 'e2', paymentId: '111222' }, 'Mercado Pago no responde')
    const before = await listFailedJobs(t.database)
    const job = before.items.find((item) => item.description.includes('111222'))!

    expect(await dismiss(job.id)).toMatchObject({ ok: true, message: FAILED_JOB_MESSAGES.dismissed })
    const after = await listFailedJobs(t.database)
    expect(after.total).toBe(before.total - 1)
    expect(after.items.map((item) => item.id)).not.toContain(job.id)

    // Again, an unknown id or junk: a Spanish refusal (404), never a 500.
    for (const id of [job.id, '00000000-0000-4000-8000-000000000000', 'no-es-un-id']) {
      expect(await dismiss(id)).toMatchObject({
        data: { ok: false, message: FAILED_JOB_MESSAGES.dismissFailed },
        init: { status: 404 },
      })
    }
    // A NUL is refused with every admin form post's 400 (app/utils/forms.server.ts).
    await expect(dismiss('no-es-un-id\u0000')).rejects.toMatchObject({
      data: { message: FORBIDDEN_CHARACTER_MESSAGE },
      init: { status: 400 },
    })
    expect((await listFailedJobs(t.database)).total).toBe(after.total)
  })
})
