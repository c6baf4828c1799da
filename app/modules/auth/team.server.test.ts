import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import {
  ADMIN_EMAIL,
  authorizeAtProvider,
  setCookies,
  signedInAs,
  startLocalIdentityProvider,
  testAuthContext,
} from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import type { AuthConfig } from './config.server.ts'
import { adminCan, requireAdmin } from './guard.server.ts'
import { NOTICES } from './messages.ts'
import { beginSignIn, completeSignIn } from './oidc.server.ts'
import { adminMembers, adminSessions } from './schema.ts'
import {
  changeMemberRole,
  inviteMember,
  joinOnSignIn,
  listTeam,
  removeMember,
  roleOf,
} from './team.server.ts'
import { INVITATION_MS, TEAM_MESSAGES } from './team.ts'

const t = setupTestDatabase()
let idp: Awaited<ReturnType<typeof startLocalIdentityProvider>>
let config: AuthConfig

beforeAll(async () => {
  idp = await startLocalIdentityProvider(t.db)
  config = idp.config
})
afterAll(async () => {
  await idp?.close()
})
beforeEach(async () => {
  await t.db.delete(adminMembers)
  await t.db.delete(adminSessions)
})

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

async function refusal(run: () => Promise<unknown>) {
  try {
    await run()
  } catch (thrown) {
    return thrown as Error & { status?: number }
  }
  throw new Error('no fue rechazado')
}

/** /login-admin → local provider → callback, as `email`; the callback's redirect and cookie. */
async function signIn(email: string) {
  const ctx = testAuthContext(t.db, config)
  const start = await beginSignIn(ctx, new Request(`${idp.base}/login-admin`, { method: 'POST' }))
  const pending = setCookies(start).get('vitrina_oidc')
  const callback = await authorizeAtProvider(start.headers.get('Location')!, { email })
  const response = await completeSignIn(
    ctx,
    new Request(callback, { headers: { Cookie: `vitrina_oidc=${pending}` } }),
    {
      userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/130',
      ipAddress: '181.50.1.2',
    },
  )
  const location = response.headers.get('Location') ?? ''
  const session = setCookies(response).get('vitrina_admin')
  return { location, cookie: session ? `vitrina_admin=${session}` : null }
}

test('an invited address signs in within the invitation, becomes a member and keeps its role', async () => {
  const { email, renewed } = await inviteMember(
    t.db,
    config,
    ADMIN_EMAIL,
    form({ email: '  Bodega@Gmail.com ', role: 'warehouse' }),
  )
  expect(email).toBe('bodega@gmail.com')
  expect(renewed).toBe(false)
  expect(await roleOf(t.db, config, 'bodega@gmail.com')).toBeNull()

  const { location, cookie } = await signIn('Bodega@gmail.com')
  expect(location).toBe('/admin')
  const admin = await requireAdmin(
    testAuthContext(t.db, config),
    new Request(`${idp.base}/admin`, { headers: { Cookie: cookie! } }),
  )
  expect(admin.role).toBe('warehouse')
  expect(adminCan(admin, 'stock')).toBe(true)
  expect(adminCan(admin, 'money')).toBe(false)
  const [member] = await t.db.select().from(adminMembers)
  expect(member!.joinedAt).toBeInstanceOf(Date)
  // The session keeps the browser and address it signed in from, for "Seguridad".
  const [session] = await t.db.select().from(adminSessions)
  expect(session).toMatchObject({
    userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/130',
    ipAddress: '181.50.1.2',
  })

  // A member stays a member after the invitation's date.
  const later = new Date(Date.now() + 2 * INVITATION_MS)
  expect(await joinOnSignIn(t.db, config, 'bodega@gmail.com', later)).toEqual({
    status: 'member',
    role: 'warehouse',
  })
})

test('an expired invitation is told so at sign-in and gives no session; renewing it lets them in', async () => {
  await inviteMember(
    t.db,
    config,
    ADMIN_EMAIL,
    form({ email: 'ventas@gmail.com', role: 'sales' }),
    new Date(Date.now() - INVITATION_MS - 1000),
  )
  const refused = await signIn('ventas@gmail.com')
  expect(new URL(refused.location, idp.base).searchParams.get('aviso')).toBe('invitacion-vencida')
  expect(NOTICES['invitacion-vencida']).toMatch(/invitación venció/)
  expect(refused.cookie).toBeFalsy()
  expect(await t.db.select().from(adminSessions)).toHaveLength(0)

  const renewed = await inviteMember(
    t.db,
    config,
    ADMIN_EMAIL,
    form({ email: 'ventas@gmail.com', role: 'sales' }),
  )
  expect(renewed.renewed).toBe(true)
  expect((await signIn('ventas@gmail.com')).location).toBe('/admin')
})

test('someone never invited is not authorised', async () => {
  const { location, cookie } = await signIn('extrano@gmail.com')
  expect(new URL(location, idp.base).searchParams.get('aviso')).toBe('no-autorizado')
  expect(cookie).toBeFalsy()
})

test('a new role applies to open sessions at once; removing a member ends every session of theirs', async () => {
  await inviteMember(t.db, config, ADMIN_EMAIL, form({ email: 'ana@gmail.com', role: 'owner' }))
  await joinOnSignIn(t.db, config, 'ana@gmail.com')
  const phone = await signedInAs(t.db, config, 'ana@gmail.com')
  const laptop = await signedInAs(t.db, config, 'Ana@Gmail.com')
  const asAna = (cookie: string) =>
    requireAdmin(
      testAuthContext(t.db, config),
      new Request(`${idp.base}/admin`, { headers: { Cookie: cookie } }),
    )
  expect((await asAna(phone.cookie)).role).toBe('owner')

  await changeMemberRole(t.db, config, ADMIN_EMAIL, form({ email: 'ana@gmail.com', role: 'sales' }))
  expect((await asAna(phone.cookie)).role).toBe('sales')
  expect(adminCan(await asAna(laptop.cookie), 'costs')).toBe(false)

  await removeMember(t.db, config, ADMIN_EMAIL, form({ email: 'ana@gmail.com' }))
  expect(
    await t.db.select().from(adminSessions).where(eq(adminSessions.email, 'Ana@Gmail.com')),
  ).toHaveLength(0)
  const thrown = await refusal(() => asAna(phone.cookie))
  expect(thrown).toBeInstanceOf(Response)
  expect((thrown as unknown as Response).headers.get('Location')).toMatch(/^\/login-admin/)
})

test('owners cannot change or remove themselves, nor the owners of ADMIN_EMAILS', async () => {
  await inviteMember(t.db, config, ADMIN_EMAIL, form({ email: 'socia@gmail.com', role: 'owner' }))
  await joinOnSignIn(t.db, config, 'socia@gmail.com')
  const own = await refusal(() =>
    changeMemberRole(t.db, config, 'socia@gmail.com', form({ email: 'socia@gmail.com', role: 'sales' })),
  )
  expect(own.message).toBe(TEAM_MESSAGES.yourself)
  const fixed = await refusal(() =>
    removeMember(t.db, config, 'socia@gmail.com', form({ email: ADMIN_EMAIL })),
  )
  expect(fixed.message).toBe(TEAM_MESSAGES.fixedOwner(ADMIN_EMAIL))
  const inviteFixed = await refusal(() =>
    inviteMember(t.db, config, 'socia@gmail.com', form({ email: ADMIN_EMAIL, role: 'sales' })),
  )
  expect(inviteFixed.message).toBe(TEAM_MESSAGES.fixedOwner(ADMIN_EMAIL))
  const again = await refusal(() =>
    inviteMember(t.db, config, ADMIN_EMAIL, form({ email: 'socia@gmail.com', role: 'sales' })),
  )
  expect(again.message).toBe(TEAM_MESSAGES.alreadyMember('socia@gmail.com'))
  const gone = await refusal(() =>
    removeMember(t.db, config, ADMIN_EMAIL, form({ email: 'nadie@gmail.com' })),
  )
  expect(gone.message).toBe(TEAM_MESSAGES.notFound)
  expect(gone.status).toBe(404)
  expect(await roleOf(t.db, config, 'socia@gmail.com')).toBe('owner')
})

test('bad input is refused in Spanish and writes nothing', async () => {
  const cases: [Record<string, string>, string][] = [
    [{ email: 'no-es-correo', role: 'sales' }, TEAM_MESSAGES.email],
    [{ email: '', role: 'sales' }, TEAM_MESSAGES.email],
    [{ email: 'a@b.co', role: 'jefe' }, TEAM_MESSAGES.role],
    [{ email: 'a@b.co' }, TEAM_MESSAGES.role],
    [{ email: `${'a'.repeat(250)}@b.co`, role: 'sales' }, TEAM_MESSAGES.email],
  ]
  for (const [fields, message] of cases) {
    expect((await refusal(() => inviteMember(t.db, config, ADMIN_EMAIL, form(fields)))).message).toBe(message)
  }
  expect(await t.db.select().from(adminMembers)).toHaveLength(0)
})

test('the list shows fixed owners first, then members with their state and open sessions', async () => {
  const now = new Date()
  await inviteMember(t.db, config, ADMIN_EMAIL, form({ email: 'b@gmail.com', role: 'warehouse' }), now)
  await inviteMember(
    t.db,
    config,
    ADMIN_EMAIL,
    form({ email: 'a@gmail.com', role: 'sales' }),
    new Date(now.getTime() - INVITATION_MS - 1),
  )
  await inviteMember(t.db, config, ADMIN_EMAIL, form({ email: 'c@gmail.com', role: 'sales' }), now)
  await joinOnSignIn(t.db, config, 'c@gmail.com', now)
  await signedInAs(t.db, config, 'c@gmail.com')
  await signedInAs(t.db, config, 'C@Gmail.com')
  const team = await listTeam(t.db, config, now)
  expect(team.map((member) => [member.email, member.role, member.state, member.sessions])).toEqual([
    [ADMIN_EMAIL, 'owner', 'fixed-owner', 0],
    ['a@gmail.com', 'sales', 'invitation-expired', 0],
    ['b@gmail.com', 'warehouse', 'invited', 0],
    ['c@gmail.com', 'sales', 'active', 2],
  ])
})
