import Bowser from 'bowser'
import { and, desc, eq, gt, gte, lt, ne, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { bogotaDayRange, bogotaStamp } from '#app/utils/bogota-days.ts'
import { containsPattern } from '#app/utils/text.ts'
import { spreadsheetCsv } from '#app/utils/spreadsheet-csv.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { normalizeEmail } from './config.server.ts'
import { adminSessions, adminSignIns } from './schema.ts'
import type { SignInDevice } from './session.server.ts'
import { SECURITY_MESSAGES, SIGN_IN_OUTCOMES, SIGN_IN_PAGE_SIZE } from './security.ts'

/**
 * "Seguridad": the team's open sessions (each can be closed, or all of one person's), and the
 * history of sign-ins, kept a year. Owners (`team`) see and close everyone's; the others only
 * their own.
 */

export const SIGN_INS_KEPT_MS = 365 * 24 * 60 * 60 * 1000

/** "Chrome en Android", "Safari en iOS"; what a User-Agent says of the browser, in Spanish. */
export function deviceLabel(userAgent: string | null): string {
  if (!userAgent) return 'Navegador desconocido'
  const parsed = Bowser.parse(userAgent)
  const browser = parsed.browser.name
  const system = parsed.os.name
  if (!browser && !system) return 'Navegador desconocido'
  if (!system) return browser!
  return browser ? `${browser} en ${system}` : system
}

export async function recordSignIn(
  db: DbOrTx,
  {
    email,
    outcome,
    device,
    at = new Date(),
  }: { email: string; outcome: string; device: SignInDevice; at?: Date },
) {
  await db.insert(adminSignIns).values({
    at,
    email: normalizeEmail(email),
    outcome,
    userAgent: device.userAgent,
    ipAddress: device.ipAddress,
  })
}

export type OpenSession = {
  id: string
  email: string
  device: string
  ipAddress: string | null
  createdAt: string
  lastSeenAt: string
  /** The session this page was asked from. */
  current: boolean
}

/** Open sessions, last used first: everyone's (`email` null) or one person's. */
export async function openSessions(
  db: DbOrTx,
  { email, currentId, now = new Date() }: { email: string | null; currentId: string; now?: Date },
): Promise<OpenSession[]> {
  const conditions: SQL[] = [gt(adminSessions.expiresAt, now)]
  if (email) conditions.push(sql`lower(${adminSessions.email}) = ${normalizeEmail(email)}`)
  const rows = await db
    .select()
    .from(adminSessions)
    .where(and(...conditions))
    .orderBy(desc(adminSessions.lastSeenAt))
  return rows.map((row) => ({
    id: row.id,
    email: normalizeEmail(row.email),
    device: deviceLabel(row.userAgent),
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.id === currentId,
  }))
}

type Actor = { email: string; mayCloseOthers: boolean }

/** Ends one session: the actor's own, or anyone's for an owner. */
export async function closeSession(db: DbOrTx, actor: Actor, sessionId: unknown) {
  if (typeof sessionId !== 'string' || !sessionId || sessionId.length > 100) {
    throw new Refusal(SECURITY_MESSAGES.badRequest, { status: 400, standsAlone: true })
  }
  const [session] = await db.select().from(adminSessions).where(eq(adminSessions.id, sessionId))
  if (!session) throw new Refusal(SECURITY_MESSAGES.sessionGone, { status: 404, standsAlone: true })
  if (!actor.mayCloseOthers && normalizeEmail(session.email) !== normalizeEmail(actor.email)) {
    throw new Refusal(SECURITY_MESSAGES.notYours, { status: 403, standsAlone: true })
  }
  await db.delete(adminSessions).where(eq(adminSessions.id, sessionId))
  return { email: normalizeEmail(session.email) }
}

/**
 * "Cerrar todas": every session of `email` (the actor's own, or anyone's for an owner). The session
 * making the request stays open when it is one of them, so the person is not thrown out mid-click.
 */
export async function closeAllSessions(db: DbOrTx, actor: Actor, email: unknown, currentId: string) {
  if (typeof email !== 'string' || !email.includes('@') || email.length > 254) {
    throw new Refusal(SECURITY_MESSAGES.badRequest, { status: 400, standsAlone: true })
  }
  const address = normalizeEmail(email)
  if (!actor.mayCloseOthers && address !== normalizeEmail(actor.email)) {
    throw new Refusal(SECURITY_MESSAGES.notYours, { status: 403, standsAlone: true })
  }
  const closed = await db
    .delete(adminSessions)
    .where(and(sql`lower(${adminSessions.email}) = ${address}`, ne(adminSessions.id, currentId)))
    .returning({ id: adminSessions.id })
  return { email: address, count: closed.length }
}

export type SignInQuery = { q?: string; from?: string; to?: string; page?: number }

function signInConditions(query: SignInQuery, email: string | null): SQL | undefined {
  const { start, end } = bogotaDayRange({ from: query.from, to: query.to })
  const conditions: SQL[] = []
  if (email) conditions.push(eq(adminSignIns.email, normalizeEmail(email)))
  if (start) conditions.push(gte(adminSignIns.at, start))
  if (end) conditions.push(lt(adminSignIns.at, end))
  const word = query.q?.trim().toLowerCase()
  if (word) {
    const pattern = containsPattern(word)
    conditions.push(
      sql`lower(concat_ws(' ', ${adminSignIns.email}, ${adminSignIns.ipAddress}, ${adminSignIns.userAgent})) like ${pattern}`,
    )
  }
  return conditions.length ? and(...conditions) : undefined
}

export type SignInRecord = {
  id: number
  at: string
  email: string
  outcome: string
  device: string
  ipAddress: string | null
}

/** One page of sign-ins, newest first: everyone's (`email` null) or one person's. */
export async function signInHistory(
  db: DbOrTx,
  query: SignInQuery,
  email: string | null,
  pageSize = SIGN_IN_PAGE_SIZE,
) {
  const where = signInConditions(query, email)
  const page = Math.max(1, query.page ?? 1)
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(adminSignIns)
      .where(where)
      .orderBy(desc(adminSignIns.at), desc(adminSignIns.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(adminSignIns)
      .where(where),
  ])
  return {
    signIns: rows.map((row): SignInRecord => ({
      id: row.id,
      at: row.at.toISOString(),
      email: row.email,
      outcome: row.outcome,
      device: deviceLabel(row.userAgent),
      ipAddress: row.ipAddress,
    })),
    total: total?.count ?? 0,
    page,
  }
}

/** Sign-ins older than a year go (the daily `security-purge` job). */
export async function purgeOldSignIns(db: DbOrTx, now = new Date()) {
  const deleted = await db
    .delete(adminSignIns)
    .where(lt(adminSignIns.at, new Date(now.getTime() - SIGN_INS_KEPT_MS)))
    .returning({ id: adminSignIns.id })
  return deleted.length
}

/** The sign-ins as a spreadsheet. */
export function signInsCsv(signIns: readonly SignInRecord[]): string {
  return spreadsheetCsv(
    ['Fecha', 'Correo', 'Resultado', 'Navegador', 'IP'],
    signIns.map((signIn) => [
      bogotaStamp(new Date(signIn.at)),
      signIn.email,
      SIGN_IN_OUTCOMES[signIn.outcome] ?? signIn.outcome,
      signIn.device,
      signIn.ipAddress ?? '',
    ]),
  )
}
