import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { monthOf } from '#app/modules/analytics/analytics.server.ts'
import {
  CONSENT_COOKIE,
  CONSENT_POLICY_VERSION,
  readConsent,
  serializeConsent,
} from '#app/modules/analytics/consent.ts'
import { clickCounts, consentLog, pageViews } from '#app/modules/analytics/schema.ts'
import { ANALYTICS_MESSAGES, CONSENT_MESSAGES } from '#app/modules/analytics/validators.ts'
import { STAFF_DEVICE_COOKIE } from '#app/modules/auth/staff-device.ts'
import { RATE_LIMITS } from '#app/modules/rate-limits/rate-limits.server.ts'
import { settings } from '#app/modules/settings/schema.ts'
import { adminSessionLimits, SESSION_LIMITS_MAX_AGE_MS } from '#app/modules/settings/settings.server.ts'
import type { Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { ADMIN_EMAIL, setCookies, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import * as click from './analytics-click.ts'
import * as view from './analytics-view.ts'
import * as consentRoute from './consent.ts'
import { CAMPAIGN_COOKIE, readCampaignTouch } from '#app/modules/analytics/campaign.ts'
import { logger } from '#app/utils/logger.server.ts'

/** The analytics beacons and the consent banner's form, as the browser posts them. */

const BEACONS_PER_MINUTE = RATE_LIMITS.beacon.points
const CONSENT_LOGS_PER_10_MINUTES = RATE_LIMITS.consentLog.points

const BASE = 'http://127.0.0.1:5571'
const OWNER_EMAIL = 'propietaria@vitrina.test'
const t = setupTestDatabase()
let services: Services
const config = testAuthConfig(BASE, [ADMIN_EMAIL, OWNER_EMAIL])

const consentCookie = (analytics: boolean) =>
  `${CONSENT_COOKIE}=${encodeURIComponent(serializeConsent({ version: CONSENT_POLICY_VERSION, analytics, advertising: false }))}`
const ANALYTICS_OK = consentCookie(true)

let clientNumber = 0
/** Each post comes from its own address unless told otherwise, so the rate limit only bites where tested. */
function post(
  route: typeof click | typeof view,
  path: string,
  body: unknown,
  options: { cookie?: string; client?: string; referer?: string } = {},
) {
  const context = routeContext(
    services,
    options.client ?? `10.0.${Math.floor(++clientNumber / 250)}.${clientNumber % 250}`,
  )
  const headers: Record<string, string> = { 'Content-Type': 'text/plain;charset=UTF-8' }
  if (options.cookie !== undefined) headers.Cookie = options.cookie
  else headers.Cookie = ANALYTICS_OK
  if (options.referer) headers.Referer = options.referer
  const request = new Request(`${BASE}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return route.action({ request, params: {}, context } as never) as Promise<Response>
}
const postClick = (body: unknown, options?: Parameters<typeof post>[3]) =>
  post(click, '/api/analitica/clic', body, options)
const postView = (body: unknown, options?: Parameters<typeof post>[3]) =>
  post(view, '/api/analitica/vista', body, options)

const clicks = () => t.db.select().from(clickCounts)
const views = () => t.db.select().from(pageViews)

beforeAll(() => {
  services = testServices({ database: t.database, auth: config, env: parseEnv({ OWNER_EMAIL }) })
  vi.spyOn(logger, 'warn').mockImplementation(() => {})
})
afterAll(() => {
  vi.restoreAllMocks()
})
beforeEach(async () => {
  await t.db.delete(clickCounts)
  await t.db.delete(pageViews)
  await t.db.delete(consentLog)
})

describe('with analytics consent', () => {
  test('a click adds 1 to the element in this month’s record', async () => {
    expect((await postClick({ element_name: 'agregar-carrito' })).status).toBe(204)
    expect((await postClick({ element_name: 'agregar-carrito' })).status).toBe(204)
    expect(await clicks()).toEqual([{ month: monthOf(), elementName: 'agregar-carrito', clickCount: 2 }])
  })

  test('a page view adds a visit and the whole seconds spent', async () => {
    expect((await postView({ page_title: '/carrito', time_spent: 12.4 })).status).toBe(204)
    expect((await postView({ page_title: '/carrito', time_spent: 3, new_visit: false })).status).toBe(204)
    expect(await views()).toEqual([
      { month: monthOf(), pageName: '/carrito', visits: 1, totalTimeSeconds: 15 },
    ])
  })
})

describe('validation (spec §5 and §8): 400 with the message, logged, nothing written', () => {
  test.each([
    [{}, ANALYTICS_MESSAGES.elementRequired],
    [{ element_name: '   ' }, ANALYTICS_MESSAGES.elementRequired],
    [{ element_name: 'x'.repeat(121) }, ANALYTICS_MESSAGES.nameTooLong],
  ])('click %j', async (body, message) => {
    const response = await postClick(body)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false, message })
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining(message))
    expect(await clicks()).toEqual([])
  })

  test.each([
    [{ time_spent: 3 }, ANALYTICS_MESSAGES.pageRequired],
    [{ page_title: '', time_spent: 3 }, ANALYTICS_MESSAGES.pageRequired],
    [{ page_title: '/', time_spent: -1 }, 'El tiempo pasado debe ser un número mayor que 0.'],
    [{ page_title: '/', time_spent: 'mucho' }, ANALYTICS_MESSAGES.timeNotNumber],
    [{ page_title: '/' }, ANALYTICS_MESSAGES.timeNotNumber],
  ])('page view %j', async (body, message) => {
    const response = await postView(body)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false, message })
    expect(await views()).toEqual([])
  })

  test.each([null, [], 'x', 42])(
    'a JSON body that is not an object (%j): a Spanish message',
    async (body) => {
      for (const send of [postClick, postView]) {
        const response = await send(JSON.stringify(body))
        expect(response.status).toBe(400)
        expect((await response.json()).message).toBe(ANALYTICS_MESSAGES.notAnObject)
      }
    },
  )

  test('new_visit must be true or false', async () => {
    const response = await postView({ page_title: '/', time_spent: 1, new_visit: 'si' })
    expect(response.status).toBe(400)
    expect((await response.json()).message).toBe(ANALYTICS_MESSAGES.newVisitNotBoolean)
    expect(await views()).toEqual([])
  })

  test.each([
    ['agregar-carrito\u0000', ANALYTICS_MESSAGES.controlCharacters],
    ['whats\u202eapp', ANALYTICS_MESSAGES.controlCharacters],
    ['cualquier-cosa', ANALYTICS_MESSAGES.unknownElement],
    ['categoria-Collares', ANALYTICS_MESSAGES.unknownElement],
  ])('only the store’s element names are counted: %j', async (element_name, message) => {
    const response = await postClick({ element_name })
    expect(response.status).toBe(400)
    expect((await response.json()).message).toBe(message)
    expect(await clicks()).toEqual([])
  })

  test.each([
    ['/\u0000', ANALYTICS_MESSAGES.controlCharacters],
    ['/producto/<script>', ANALYTICS_MESSAGES.badCharacters],
  ])('page names: %j refused', async (page_title, message) => {
    const response = await postView({ page_title, time_spent: 1 })
    expect(response.status).toBe(400)
    expect((await response.json()).message).toBe(message)
    expect(await views()).toEqual([])
  })

  test('made-up page names fall into a few records, however many are sent', async () => {
    const product = await createProduct(t.db)
    for (let i = 0; i < 30; i++) {
      await postView({ page_title: `/inventada-${i}`, time_spent: 1 })
      await postView({ page_title: `/producto/FALSO-${i}`, time_spent: 1 })
      await postView({ page_title: `/pago-simulado/${i}`, time_spent: 1 })
    }
    await postView({ page_title: `/producto/${product.sku}`, time_spent: 1 })
    const names = (await views()).map((row) => [row.pageName, row.visits]).sort()
    expect(names).toEqual(
      [
        ['/pago-simulado/:id', 30],
        ['/producto/:sku', 30],
        [`/producto/${product.sku}`, 1],
        ['otra', 30],
      ].sort(),
    )
  })

  test('a body that is not JSON', async () => {
    const response = await postClick('element_name=agregar-carrito')
    expect(response.status).toBe(400)
    expect((await response.json()).message).toBe(ANALYTICS_MESSAGES.unreadable)
  })

  test('time 0 is a visit; a huge time counts at most an hour', async () => {
    await postView({ page_title: '/', time_spent: 0 })
    await postView({ page_title: '/', time_spent: 999_999 })
    expect(await views()).toEqual([{ month: monthOf(), pageName: '/', visits: 2, totalTimeSeconds: 3600 }])
  })
})

test('a malformed consent cookie is no consent: 204, nothing counted, no error', async () => {
  for (const cookie of [`${CONSENT_COOKIE}=%E0`, `${CONSENT_COOKIE}=%`]) {
    expect((await postClick({ element_name: 'whatsapp' }, { cookie })).status).toBe(204)
    expect((await postView({ page_title: '/', time_spent: 5 }, { cookie })).status).toBe(204)
  }
  expect(await clicks()).toEqual([])
  expect(await views()).toEqual([])
})

test('an IPv6 client is limited by its /64, whatever address in it it uses', async () => {
  const answers = []
  for (let i = 0; i < BEACONS_PER_MINUTE + 3; i++)
    answers.push(
      (await postClick({ element_name: 'buscar' }, { client: `2001:db8:77:1::${i.toString(16)}` })).status,
    )
  expect(answers.filter((status) => status === 429)).toHaveLength(3)
  expect((await postClick({ element_name: 'buscar' }, { client: '2001:db8:77:2::1' })).status).toBe(204)
})

describe('never counted', () => {
  test('without a consent cookie, with analytics refused, or with an outdated policy version', async () => {
    const outdated = `${CONSENT_COOKIE}=${encodeURIComponent('v=2000-01-01|a=1|m=1')}`
    for (const cookie of ['', consentCookie(false), outdated]) {
      expect((await postClick({ element_name: 'whatsapp' }, { cookie })).status).toBe(204)
      expect((await postView({ page_title: '/', time_spent: 5 }, { cookie })).status).toBe(204)
    }
    expect(await clicks()).toEqual([])
    expect(await views()).toEqual([])
  })

  test('/admin pages, by page name or by the page the click came from', async () => {
    for (const page_title of ['/admin', '/admin/productos', 'admin/reportes', '/ADMIN/pedidos?x=1'])
      expect((await postView({ page_title, time_spent: 5 })).status).toBe(204)
    await postClick({ element_name: 'whatsapp' }, { referer: `${BASE}/Admin/productos` })
    await postView({ page_title: '/', time_spent: 5 }, { referer: `${BASE}/admin` })
    expect(await clicks()).toEqual([])
    expect(await views()).toEqual([])
    // A storefront address that merely starts with the letters is counted (as an unknown page).
    await postView({ page_title: '/administracion-de-joyas', time_spent: 1 })
    expect(await views()).toMatchObject([{ pageName: 'otra', visits: 1 }])
  })

  test('a device that signed in to the back office (staff cookie), even signed out', async () => {
    const cookie = `${ANALYTICS_OK}; ${STAFF_DEVICE_COOKIE}=1`
    await postClick({ element_name: 'whatsapp' }, { cookie })
    await postView({ page_title: '/', time_spent: 5 }, { cookie })
    expect(await clicks()).toEqual([])
    expect(await views()).toEqual([])
  })

  test.each([
    ['a signed-in admin', ADMIN_EMAIL],
    ['the owner (OWNER_EMAIL)', OWNER_EMAIL],
  ])('%s', async (_who, email) => {
    const { cookie: session } = await signedInAs(t.db, config, email)
    const cookie = `${ANALYTICS_OK}; ${session}`
    await postClick({ element_name: 'whatsapp' }, { cookie })
    await postView({ page_title: '/', time_spent: 5 }, { cookie })
    expect(await clicks()).toEqual([])
    expect(await views()).toEqual([])
  })

  test('an admin idle for 13 hours whose owner set a longer idle limit (the back office’s limits)', async () => {
    const HOUR = 3_600_000
    const { cookie: session } = await signedInAs(t.db, config, ADMIN_EMAIL, {
      now: new Date(Date.now() - 13 * HOUR),
    })
    const cookie = `${ANALYTICS_OK}; ${session}`
    // Under the default 12 hours the session has ended: that browser is a shopper's again.
    await postClick({ element_name: 'whatsapp' }, { cookie })
    expect(await clicks()).toHaveLength(1)
    await t.db.delete(clickCounts)
    // The owner allows a day without activity (another process saved it; this one's copy is renewed).
    await t.db.insert(settings).values({ key: 'adminIdleMinutes', value: 24 * 60 })
    try {
      await adminSessionLimits(t.db, Date.now() + SESSION_LIMITS_MAX_AGE_MS)
      await postClick({ element_name: 'whatsapp' }, { cookie })
      await postView({ page_title: '/', time_spent: 5 }, { cookie })
      expect(await clicks()).toEqual([])
      expect(await views()).toEqual([])
    } finally {
      await t.db.delete(settings)
      await adminSessionLimits(t.db, Date.now() + SESSION_LIMITS_MAX_AGE_MS)
    }
  })
})

test(`one client is cut off after ${BEACONS_PER_MINUTE} beacons a minute; others are not`, async () => {
  const client = '192.0.2.77'
  const answers = await Promise.all(
    Array.from({ length: BEACONS_PER_MINUTE + 15 }, () => postClick({ element_name: 'buscar' }, { client })),
  )
  expect(answers.filter((answer) => answer.status === 204)).toHaveLength(BEACONS_PER_MINUTE)
  const refused = answers.filter((answer) => answer.status === 429)
  expect(refused).toHaveLength(15)
  expect((await refused[0]!.json()).message).toBe(RATE_LIMITS.beacon.message)
  expect(await clicks()).toEqual([
    { month: monthOf(), elementName: 'buscar', clickCount: BEACONS_PER_MINUTE },
  ])
  // Page views have their own allowance, and another address is unaffected.
  expect((await postView({ page_title: '/', time_spent: 1 }, { client })).status).toBe(204)
  expect((await postClick({ element_name: 'buscar' }, { client: '192.0.2.78' })).status).toBe(204)
})

test('another spelling of the beacon’s path (case, trailing slash, percent-encoding) shares its allowance', async () => {
  const client = '192.0.2.79'
  for (let i = 0; i < BEACONS_PER_MINUTE; i++) {
    expect((await postClick({ element_name: 'buscar' }, { client })).status).toBe(204)
  }
  // The router sends every one of these to the click beacon.
  for (const path of ['/API/Analitica/CLIC', '/api/analitica/clic/', '/api/analitica/%63lic']) {
    expect((await post(click, path, { element_name: 'buscar' }, { client })).status).toBe(429)
  }
  for (const path of ['/API/ANALITICA/VISTA', '/api/analitica/vista/']) {
    expect((await post(view, path, { page_title: '/', time_spent: 1 }, { client })).status).toBe(204)
  }
  expect(await clicks()).toEqual([
    { month: monthOf(), elementName: 'buscar', clickCount: BEACONS_PER_MINUTE },
  ])
})

describe('the consent form (POST /api/consentimiento)', () => {
  const postConsent = (
    fields: Record<string, string>,
    headers: Record<string, string> = {},
    client: string | null = null,
  ) => {
    const context = routeContext(services, client)
    const form = new URLSearchParams(fields)
    const request = new Request(`${BASE}/api/consentimiento`, {
      method: 'POST',
      body: form,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: BASE, ...headers },
    })
    return consentRoute.action({ request, params: {}, context } as never) as Promise<Response>
  }

  test('without JavaScript: stores the selection in the cookie, logs it and goes back to the page', async () => {
    const response = await postConsent({
      eleccion: 'seleccion',
      analitica: 'si',
      volver: '/carrito?preferencias',
    })
    expect(response.status).toBe(303)
    expect(response.headers.get('Location')).toBe('/carrito')
    const cookie = `${CONSENT_COOKIE}=${setCookies(response).get(CONSENT_COOKIE)}`
    expect(readConsent(cookie)).toMatchObject({ analytics: true, advertising: false })
    expect(await t.db.select().from(consentLog)).toMatchObject([{ analytics: true, advertising: false }])
  })

  test('with JavaScript: answers JSON; "Aceptar todo" and "Rechazar todo" ignore the boxes', async () => {
    const all = await postConsent({ eleccion: 'todo' }, { Accept: 'application/json' })
    expect(all.status).toBe(200)
    const { consent } = await all.json()
    expect(consent).toMatchObject({ version: CONSENT_POLICY_VERSION, analytics: true, advertising: true })
    const cookie = `${CONSENT_COOKIE}=${setCookies(all).get(CONSENT_COOKIE)}`

    const none = await postConsent(
      { eleccion: 'nada', analitica: 'si', publicidad: 'si' },
      { Accept: 'application/json', Cookie: cookie },
    )
    expect((await none.json()).consent).toEqual({ ...consent, analytics: false, advertising: false })
    const log = await t.db.select().from(consentLog).orderBy(consentLog.id)
    expect(log.map((row) => [row.consentId, row.analytics, row.advertising])).toEqual([
      [consent.id, true, true],
      [consent.id, false, false],
    ])
  })

  test('allowing analytics keeps where the shopper came from: the landing page’s utm and, with scripts, the referring site', async () => {
    const plain = await postConsent({
      eleccion: 'todo',
      volver: '/producto/X?utm_source=Instagram&utm_campaign=navidad',
    })
    expect(readCampaignTouch(`${CAMPAIGN_COOKIE}=${setCookies(plain).get(CAMPAIGN_COOKIE)}`)).toEqual({
      source: 'instagram',
      medium: null,
      campaign: 'navidad',
      referrerHost: null,
    })
    const scripted = await postConsent(
      { eleccion: 'seleccion', analitica: 'si', volver: '/', origen: 'https://l.facebook.com/l.php?u=x' },
      { Accept: 'application/json' },
    )
    expect(readCampaignTouch(`${CAMPAIGN_COOKIE}=${setCookies(scripted).get(CAMPAIGN_COOKIE)}`)).toEqual({
      source: null,
      medium: null,
      campaign: null,
      referrerHost: 'l.facebook.com',
    })
    // An unreadable referrer never refuses the answer.
    const odd = await postConsent({ eleccion: 'todo', volver: '/', origen: 'x'.repeat(5000) })
    expect(odd.status).toBe(303)
  })

  test('a touch already kept stays; refusing analytics forgets it', async () => {
    const kept = `${CAMPAIGN_COOKIE}=directo`
    const again = await postConsent({ eleccion: 'todo', volver: '/?utm_source=otra' }, { Cookie: kept })
    expect(setCookies(again).has(CAMPAIGN_COOKIE)).toBe(false)
    const refused = await postConsent(
      { eleccion: 'seleccion', publicidad: 'si', volver: '/' },
      { Cookie: kept },
    )
    expect(setCookies(refused).get(CAMPAIGN_COOKIE)).toBe('')
    const untouched = await postConsent({ eleccion: 'nada', volver: '/' })
    expect(setCookies(untouched).has(CAMPAIGN_COOKIE)).toBe(false)
  })

  test('never sends the shopper to another site or to the back office', async () => {
    for (const volver of [
      'https://otro.example/',
      '//otro.example/',
      '/admin/productos',
      '/ADMIN/x',
      '/%61dmin',
      '/\\otro.example',
    ])
      expect((await postConsent({ eleccion: 'nada', volver })).headers.get('Location')).toBe('/')
  })

  test('a post from another site is refused and logs nothing', async () => {
    const response = await postConsent({ eleccion: 'todo' }, { Origin: 'https://otro.example' })
    expect(response.status).toBe(403)
    expect(await t.db.select().from(consentLog)).toEqual([])
  })

  test('a choice it does not understand is refused', async () => {
    const response = await postConsent({ eleccion: 'quizas' }, { Accept: 'application/json' })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false, message: CONSENT_MESSAGES.notUnderstood })
    expect(await t.db.select().from(consentLog)).toEqual([])
  })

  test('without JavaScript a refusal is a small Spanish page with the way back, not JSON', async () => {
    const refused = await postConsent({ eleccion: 'quizas', volver: '/carrito' })
    expect(refused.status).toBe(400)
    expect(refused.headers.get('Content-Type')).toContain('text/html')
    const html = await refused.text()
    expect(html).toContain(CONSENT_MESSAGES.notUnderstood)
    expect(html).toContain('href="/carrito"')
    expect(html).toContain('lang="es"')
    const otherSite = await postConsent({ eleccion: 'todo' }, { Origin: 'https://otro.example' })
    expect(otherSite.status).toBe(403)
    expect(await otherSite.text()).toContain(CONSENT_MESSAGES.otherSite)
  })

  test(`behind one carrier address, every shopper's choice is kept; ${CONSENT_LOGS_PER_10_MINUTES} are logged in 10 minutes`, async () => {
    const carrierNat = '2001:db8:99:1::1'
    const answers = []
    for (let i = 0; i < CONSENT_LOGS_PER_10_MINUTES + 5; i++)
      answers.push(await postConsent({ eleccion: 'todo' }, { Accept: 'application/json' }, carrierNat))
    // Every shopper gets their cookie and an answer that says it was kept…
    expect(answers.map((answer) => answer.status).every((status) => status === 200)).toBe(true)
    const last = answers.at(-1)!
    expect(last.headers.get('Set-Cookie')).toContain(`${CONSENT_COOKIE}=`)
    expect((await last.json()).consent).toMatchObject({ analytics: true, advertising: true })
    // …and only the logging stops at the network's allowance.
    expect(await t.db.select().from(consentLog)).toHaveLength(CONSENT_LOGS_PER_10_MINUTES)
    // A plain form post past it still goes back to the page, with the cookie.
    const form = await postConsent({ eleccion: 'nada', volver: '/carrito' }, {}, carrierNat)
    expect(form.status).toBe(303)
    expect(form.headers.get('Location')).toBe('/carrito')
    expect(form.headers.get('Set-Cookie')).toContain(`${CONSENT_COOKIE}=`)
    // Another network is logged as usual.
    await postConsent({ eleccion: 'nada' }, { Accept: 'application/json' }, '192.0.2.200')
    expect(await t.db.select().from(consentLog)).toHaveLength(CONSENT_LOGS_PER_10_MINUTES + 1)
  })
})
