import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { ADMIN_EMAIL, setCookies, signedInAs, testAuthConfig, testAuthContext } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { currentAdmin, requireAdmin, signInPageState, signOut, type SessionOptions } from './guard.server.ts'
import { durationText, noticeText } from './messages.ts'
import { adminSessions } from './schema.ts'
import { adminScriptAnswer } from './script-answer.server.ts'
import {
  deleteExpiredSessions,
  ENDED_SESSION_KEPT_MS,
  LAST_SEEN_INTERVAL_MS,
  touchAdminSession,
  type SessionLimits,
} from './session.server.ts'

/** Issue 23: sessions end after a time without requests as well as a time after sign-in. */

const BASE = 'https://tienda.example'
const t = setupTestDatabase()
const config = testAuthConfig(BASE)
/** The auth context as the registry builds it, with the owner's `limits` (the defaults unless given). */
const ctx = (limits?: SessionLimits) => testAuthContext(t.db, config, limits)
/** When to judge a request, and the limits the owner has set then. */
type Moment = SessionOptions & { limits?: SessionLimits }

const MINUTE = 60 * 1000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const T0 = new Date('2026-11-02T08:00:00-05:00')
const at = (ms: number) => new Date(T0.getTime() + ms)

beforeEach(async () => {
  await t.db.delete(adminSessions)
})

const signedIn = () => signedInAs(t.db, config, ADMIN_EMAIL, { now: T0 })
const rowOf = async (id: string) =>
  (await t.db.select().from(adminSessions).where(eq(adminSessions.id, id)))[0]

/** requireAdmin on an admin page at `options.now`: the admin, or the sign-in page it sends to. */
async function visit(cookie: string, { limits, ...options }: Moment, path = '/admin/productos') {
  const request = new Request(`${BASE}${path}`, { headers: { Cookie: cookie } })
  try {
    return { admin: await requireAdmin(ctx(limits), request, options) }
  } catch (thrown) {
    const response = thrown as Response
    const location = new URL(response.headers.get('Location')!, BASE)
    return {
      notice: location.searchParams.get('aviso'),
      location,
      cleared: setCookies(response).get('__Host-vitrina_admin'),
    }
  }
}

describe('the idle limit (12 hours by default)', () => {
  test('each request keeps the session open; 12 hours without one ends it, with its own notice', async () => {
    const { cookie, session } = await signedIn()
    expect((await visit(cookie, { now: at(11 * HOUR + 59 * MINUTE) })).admin?.email).toBe(ADMIN_EMAIL)
    // Active again 11 h 59 min after that last request: still the same session.
    expect((await visit(cookie, { now: at(23 * HOUR + 58 * MINUTE) })).admin?.email).toBe(ADMIN_EMAIL)
    const ended = await visit(cookie, { now: at(36 * HOUR) })
    expect(ended).toMatchObject({ notice: 'sesion-inactiva', cleared: '' })
    // Back to this page after signing in again.
    expect(ended.location?.searchParams.get('volver')).toBe('/admin/productos')
    expect(await rowOf(session.id)).toBeUndefined()
  })

  test('the last request is written at most once a minute', async () => {
    const { cookie, session } = await signedIn()
    for (const seconds of [1, 20, 59]) await visit(cookie, { now: at(seconds * 1000) })
    expect((await rowOf(session.id))!.lastSeenAt).toEqual(T0)
    await visit(cookie, { now: at(LAST_SEEN_INTERVAL_MS + 1000) })
    expect((await rowOf(session.id))!.lastSeenAt).toEqual(at(LAST_SEEN_INTERVAL_MS + 1000))
  })

  test('a refused post (another site, no token) is not a use of the session', async () => {
    const { cookie, session } = await signedIn()
    const later = at(LAST_SEEN_INTERVAL_MS + 1000)
    const refused: Record<string, string>[] = [
      { Cookie: cookie, Origin: 'https://evil.example' },
      { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    ]
    for (const headers of refused) {
      const request = new Request(`${BASE}/admin/productos`, { method: 'POST', headers, body: 'a=1' })
      await expect(requireAdmin(ctx(), request, { now: later })).rejects.toMatchObject({
        init: { status: 403 },
      })
    }
    expect((await rowOf(session.id))!.lastSeenAt).toEqual(T0)
  })

  test('two processes that read the session before either wrote write its last request once', async () => {
    const { session } = await signedIn()
    // Both hold the row as it was at sign-in (lastSeenAt T0), so their own copies look stale: only
    // the database's guard can keep the second from writing again.
    const first = { ...session }
    const second = { ...session }
    expect(await touchAdminSession(t.db, first, at(LAST_SEEN_INTERVAL_MS + 1000))).toBe(true)
    expect(await touchAdminSession(t.db, second, at(LAST_SEEN_INTERVAL_MS + 2000))).toBe(false)
    expect((await rowOf(session.id))!.lastSeenAt).toEqual(at(LAST_SEEN_INTERVAL_MS + 1000))
    // A minute after that write, the next request is written again.
    expect(await touchAdminSession(t.db, second, at(2 * LAST_SEEN_INTERVAL_MS + 2000))).toBe(true)
  })

  test('the owner’s limit applies, to sessions already open too', async () => {
    const { cookie } = await signedIn()
    const limits = { idleMs: 15 * MINUTE, absoluteMs: DAY }
    expect((await visit(cookie, { limits, now: at(14 * MINUTE) })).admin).toBeDefined()
    expect((await visit(cookie, { limits, now: at(30 * MINUTE) })).notice).toBe('sesion-inactiva')
  })
})

describe('the absolute limit (7 days by default)', () => {
  test('ends a session however active, with a notice of its own', async () => {
    const { cookie, session } = await signedIn()
    for (let hours = 6; hours < 7 * 24; hours += 6) {
      expect((await visit(cookie, { now: at(hours * HOUR) })).admin, `${hours} h`).toBeDefined()
    }
    expect((await visit(cookie, { now: at(7 * DAY) })).notice).toBe('sesion-vencida')
    expect(await rowOf(session.id)).toBeUndefined()
  })

  test('a shorter limit ends open sessions at once; a longer one is for the next sign-ins', async () => {
    const shorter = await signedIn()
    const oneHour = { idleMs: 12 * HOUR, absoluteMs: HOUR }
    expect((await visit(shorter.cookie, { limits: oneHour, now: at(59 * MINUTE) })).admin).toBeDefined()
    expect((await visit(shorter.cookie, { limits: oneHour, now: at(61 * MINUTE) })).notice).toBe(
      'sesion-vencida',
    )

    const longer = await signedIn()
    const month = { idleMs: 7 * DAY, absoluteMs: 30 * DAY }
    expect((await visit(longer.cookie, { limits: month, now: at(6 * DAY) })).admin?.expiresAt).toEqual(
      at(7 * DAY),
    )
    expect((await visit(longer.cookie, { limits: month, now: at(7 * DAY) })).notice).toBe('sesion-vencida')
  })
})

test('a removed admin is refused and the session deleted, within its limits or past them', async () => {
  const live = await signedIn()
  const ended = await signedIn()
  const removed = { ...config, adminEmails: ['otra@vitrina.test'] }
  const request = (cookie: string) => new Request(`${BASE}/admin`, { headers: { Cookie: cookie } })
  const refusal = (cookie: string, now: Date) =>
    requireAdmin(testAuthContext(t.db, removed), request(cookie), { now }).then(
      () => expect.fail('the removed admin was let in'),
      (thrown: Response) => thrown,
    )
  const liveAnswer = await refusal(live.cookie, at(HOUR))
  expect(new URL(liveAnswer.headers.get('Location')!, BASE).searchParams.get('aviso')).toBe('no-autorizado')
  await refusal(ended.cookie, at(13 * HOUR))
  expect(await rowOf(live.session.id)).toBeUndefined()
  expect(await rowOf(ended.session.id)).toBeUndefined()
})

describe('the sign-in page says which limit ended the session', () => {
  const page = (query: string, { limits, ...options }: Moment = {}, cookie?: string) =>
    signInPageState(
      ctx(limits),
      new Request(`${BASE}/login-admin${query}`, { headers: cookie ? { Cookie: cookie } : {} }),
      options,
    )

  test('with the limits as they are now', async () => {
    expect((await page('?aviso=sesion-inactiva')).notice).toBe(
      'Tu sesión se cerró después de 12 horas sin actividad. Inicia sesión de nuevo.',
    )
    expect((await page('?aviso=sesion-vencida')).notice).toBe(
      'Tu sesión se cerró porque llegó a su duración máxima de 7 días. Inicia sesión de nuevo.',
    )
    const limits = { idleMs: 90 * MINUTE, absoluteMs: 36 * HOUR }
    expect((await page('?aviso=sesion-inactiva', { limits })).notice).toBe(
      'Tu sesión se cerró después de 1 hora y 30 minutos sin actividad. Inicia sesión de nuevo.',
    )
    expect((await page('?aviso=sesion-vencida', { limits })).notice).toBe(
      'Tu sesión se cerró porque llegó a su duración máxima de 1 día y 12 horas. Inicia sesión de nuevo.',
    )
  })

  test('also when the browser comes straight to the page with the ended session’s cookie', async () => {
    const { cookie, session } = await signedIn()
    expect((await page('', { now: at(13 * HOUR) }, cookie)).notice).toBe(
      'Tu sesión se cerró después de 12 horas sin actividad. Inicia sesión de nuevo.',
    )
    expect(await rowOf(session.id)).toBeUndefined()
    // A live session goes straight in.
    const live = await signedIn()
    await expect(page('', { now: at(HOUR) }, live.cookie)).rejects.toBeInstanceOf(Response)
    expect(
      await currentAdmin(ctx(), new Request(`${BASE}/login-admin`, { headers: { Cookie: live.cookie } }), {
        now: at(HOUR),
      }),
    ).not.toBeNull()
  })

  test('a script client (the product upload) is told in JSON, with the general words and way back', async () => {
    const { cookie } = await signedIn()
    const request = new Request(`${BASE}/admin/productos/guardar`, {
      method: 'POST',
      headers: { Cookie: cookie, Accept: 'application/json' },
    })
    const thrown = await requireAdmin(ctx(), request, { now: at(13 * HOUR) }).then(
      () => expect.fail('the ended session was let in'),
      (answer: Response) => answer,
    )
    const answer = adminScriptAnswer(thrown, request)!
    expect(answer.status).toBe(401)
    expect(await answer.json()).toEqual({
      ok: false,
      message: 'Tu sesión expiró. Inicia sesión de nuevo.',
      signIn: '/login-admin?aviso=sesion-expirada',
    })
  })
})

test('signing out of an ended session deletes it and says why it had ended', async () => {
  const { cookie, session } = await signedIn()
  const out = await signOut(
    ctx(),
    new Request(`${BASE}/logout`, { method: 'POST', headers: { Cookie: cookie } }),
    { now: at(8 * DAY) },
  )
  expect(out.headers.get('Location')).toBe('/login-admin?aviso=sesion-inactiva')
  expect(await rowOf(session.id)).toBeUndefined()
})

test('an ended session’s row stays a week past its end, so its browser can be told why', async () => {
  const { session } = await signedIn()
  await deleteExpiredSessions(t.db, at(7 * DAY + ENDED_SESSION_KEPT_MS - MINUTE))
  expect(await rowOf(session.id)).toBeDefined()
  await deleteExpiredSessions(t.db, at(7 * DAY + ENDED_SESSION_KEPT_MS + MINUTE))
  expect(await rowOf(session.id)).toBeUndefined()
})

test('durations read as people say them', () => {
  expect(durationText(15 * MINUTE)).toBe('15 minutos')
  expect(durationText(HOUR)).toBe('1 hora')
  expect(durationText(12 * HOUR)).toBe('12 horas')
  expect(durationText(DAY + 2 * HOUR + 5 * MINUTE)).toBe('1 día, 2 horas y 5 minutos')
  expect(durationText(7 * DAY)).toBe('7 días')
  expect(durationText(30 * DAY)).toBe('30 días')
  // The general text, where no limit is known to name.
  expect(noticeText('sesion-inactiva')).toBe('Tu sesión expiró. Inicia sesión de nuevo.')
})
