import { eq } from 'drizzle-orm'
import { beforeAll, beforeEach, expect, test } from 'vitest'
import { auditEntries } from '#app/modules/audit/schema.ts'
import { purgeOldAuditEntries } from '#app/modules/audit/audit.server.ts'
import { adminMembers, adminSessions, adminSignIns } from '#app/modules/auth/schema.ts'
import { purgeOldSignIns, recordSignIn } from '#app/modules/auth/security.server.ts'
import { SECURITY_MESSAGES } from '#app/modules/auth/security.ts'
import { TEAM_MESSAGES } from '#app/modules/auth/team.ts'
import { media, products } from '#app/modules/catalog/schema.ts'
import type { Services } from '#app/services.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { addTeamMember, ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import * as saveProduct from './products/save.ts'
import * as stockEntry from './stock/entry.tsx'
import * as stockExit from './stock/exit.tsx'
import { DEFAULT_LOCATION } from '#app/modules/inventory/locations.ts'
import * as securityCsv from './security-csv.ts'
import * as security from './security.tsx'
import * as settingsPage from './settings.tsx'
import * as team from './team.tsx'

/**
 * "Seguridad": every back-office write lands in the audit log with who, where and what changed
 * (prices, costs, settings, roles), searchable and exported; the session list closes sessions at
 * once; the sign-in history; a year's keeping. Non-owners see only their own.
 */

const BASE = 'http://127.0.0.1:5571'
const t = setupTestDatabase()
const config = testAuthConfig(BASE)
let services: Services
type Session = Awaited<ReturnType<typeof signedInAs>>
let owner: Session
let seller: Session

beforeAll(async () => {
  services = testServices({ database: t.database, auth: config })
})
beforeEach(async () => {
  await t.db.delete(auditEntries)
  await t.db.delete(adminSessions)
  await t.db.delete(adminMembers)
  await t.db.delete(adminSignIns)
  owner = await signedInAs(t.db, config, ADMIN_EMAIL)
  await addTeamMember(t.db, 'ventas@gmail.com', 'sales')
  seller = await signedInAs(t.db, config, 'ventas@gmail.com')
})

function run(
  handler: (args: never) => unknown,
  path: string,
  as: Session,
  fields?: Record<string, string> | FormData,
) {
  let body: FormData | undefined
  if (fields instanceof FormData) body = fields
  else if (fields) {
    body = new FormData()
    for (const [name, value] of Object.entries(fields)) body.set(name, value)
  }
  body?.set('csrf', as.csrfToken)
  const request = new Request(`${BASE}${path}`, {
    method: body ? 'POST' : 'GET',
    body,
    headers: { Cookie: as.cookie, 'User-Agent': 'pruebas', ...(body ? { Origin: BASE } : {}) },
  })
  return asAdminRoute(handler as never, { request, params: {}, context: routeContext(services, '190.0.0.9') })
}

const loadSecurity = (query: string, as = owner) =>
  run(security.loader, `/admin/seguridad${query}`, as) as Promise<Awaited<ReturnType<typeof security.loader>>>

test('a settings save is logged with who, where, and each value before → after; secrets are not kept', async () => {
  const { values, loaded } = (await run(settingsPage.loader, '/admin/configuraciones', owner)) as {
    values: Record<string, string>
    loaded: string
  }
  await run(settingsPage.action, '/admin/configuraciones', owner, {
    intent: 'guardar',
    ...values,
    loaded,
    shippingCost: '12000',
  })
  const [entry] = await t.db.select().from(auditEntries)
  expect(entry).toMatchObject({
    actorEmail: ADMIN_EMAIL,
    actorRole: 'owner',
    section: 'Configuraciones',
    path: '/admin/configuraciones',
    intent: 'guardar',
    status: 200,
    ipAddress: '190.0.0.9',
  })
  expect(entry!.changes).toEqual([
    {
      subject: 'Configuraciones',
      label: 'Costo de envío',
      before: formatCOP(0),
      after: formatCOP(12_000_00),
    },
  ])
  expect(entry!.fields.shippingCost).toBe('12000')
  expect(Object.keys(entry!.fields).some((name) => /csrf/i.test(name))).toBe(false)
})

test("a product's prices and cost are logged before → after; a refused post is not", async () => {
  const category = await createCategory(t.db)
  const { sku } = await createProduct(t.db, {
    cost: 9_000_00,
    priceLevel1: 30_000_00,
    stock: 0,
    withImage: true,
  })
  const [image] = await t.db.select().from(media).where(eq(media.productSku, sku))
  const form = new FormData()
  form.set('sku', sku)
  form.set('name', 'Arete Gota')
  form.set('description', 'Arete en plata')
  form.append('categoryIds', category.id)
  form.set('level1', '32000')
  form.set('cost', '9500')
  form.set('loadedCost', '9000')
  form.set('showRetail', 'on')
  form.set('mainImage', `existente:${image!.id}`)
  const saved = (await run(saveProduct.action, '/admin/productos/guardar', owner, form)) as Response
  expect(await saved.json()).toEqual({ ok: true, sku, message: expect.any(String) })
  const [row] = await t.db.select().from(products).where(eq(products.sku, sku))
  expect(row!.priceLevel1).toBe(32_000_00)

  const refused = new FormData()
  refused.set('intent', 'cambiar-rol')
  refused.set('email', ADMIN_EMAIL)
  refused.set('role', 'sales')
  await run(team.action, '/admin/usuarios', owner, refused)

  // The refused change wrote nothing, and the log says nothing of it.
  const { audit } = await loadSecurity('?ver=cambios')
  expect(audit!.total).toBe(1)
  const [productEntry] = audit!.entries
  expect(productEntry!.section).toBe('Productos')
  // Levels 2–5 follow level 1 when left empty: they show as changed too.
  expect(productEntry!.changes).toEqual(
    expect.arrayContaining([
      { subject: `Producto ${sku}`, label: 'Costo', before: formatCOP(9_000_00), after: formatCOP(9_500_00) },
      {
        subject: `Producto ${sku}`,
        label: 'Precio nivel 1',
        before: formatCOP(30_000_00),
        after: formatCOP(32_000_00),
      },
    ]),
  )
  expect(productEntry!.changes.map((change) => change.label)).not.toContain('Descuento')
  // Searchable by SKU (in what changed) and by who; a day range leaves out other days.
  expect((await loadSecurity(`?ver=cambios&q=${sku}`)).audit!.total).toBe(1)
  expect((await loadSecurity('?ver=cambios&q=duena')).audit!.total).toBe(1)
  expect((await loadSecurity('?ver=cambios&q=nadie-hizo-esto')).audit!.total).toBe(0)
  expect((await loadSecurity('?ver=cambios&desde=2020-01-01&hasta=2020-01-31')).audit!.total).toBe(0)

  const csv = (await run(securityCsv.loader, `/admin/seguridad/csv?ver=cambios&q=${sku}`, owner)) as Response
  expect(csv.headers.get('Content-Type')).toMatch(/text\/csv/)
  const text = await csv.text()
  expect(text).toContain('Fecha;Quién;Rol;Sección')
  expect(text).toContain(`Producto ${sku} · Costo: ${formatCOP(9_000_00)} → ${formatCOP(9_500_00)}`)
})

test('a stock entry and exit are logged with the stock before → after', async () => {
  const { sku } = await createProduct(t.db, { stock: 3, reserved: 0, cost: 1_000_00 })
  const movement = { sku, unitPrice: '1000', location: DEFAULT_LOCATION, receipt: 'F-1', note: '' }
  await run(stockEntry.action, '/admin/productos/entrada', owner, { ...movement, quantity: '5' })
  await run(stockExit.action, '/admin/productos/salida', owner, { ...movement, quantity: '2' })
  const { audit } = await loadSecurity(`?ver=cambios&q=${sku}`)
  expect(audit!.entries.map((entry) => entry.changes)).toEqual([
    [{ subject: `Producto ${sku}`, label: 'Stock', before: '8', after: '6' }],
    [{ subject: `Producto ${sku}`, label: 'Stock', before: '3', after: '8' }],
  ])
})

test('role changes are logged before → after', async () => {
  await run(team.action, '/admin/usuarios', owner, {
    intent: 'cambiar-rol',
    email: 'ventas@gmail.com',
    role: 'warehouse',
  })
  const [entry] = await t.db.select().from(auditEntries)
  expect(entry!.changes).toEqual([
    { subject: 'ventas@gmail.com', label: 'Rol', before: 'Ventas', after: 'Bodega' },
  ])
})

test('sessions: an owner closes one of anyone, or all of a person; the closed session is out at once', async () => {
  const second = await signedInAs(t.db, config, 'ventas@gmail.com')
  const { sessions } = await loadSecurity('')
  expect(sessions.map((session) => session.email).sort()).toEqual([
    ADMIN_EMAIL,
    'ventas@gmail.com',
    'ventas@gmail.com',
  ])
  expect(sessions.find((session) => session.current)?.email).toBe(ADMIN_EMAIL)

  const target = sessions.find((session) => session.email === 'ventas@gmail.com')!
  const closed = await run(security.action, '/admin/seguridad', owner, {
    intent: 'cerrar-sesion',
    id: target.id,
  })
  expect(closed).toMatchObject({ ok: true, message: SECURITY_MESSAGES.sessionClosed })
  expect((await loadSecurity('')).sessions).toHaveLength(2)

  const all = await run(security.action, '/admin/seguridad', owner, {
    intent: 'cerrar-todas',
    email: 'ventas@gmail.com',
  })
  expect(all).toMatchObject({ ok: true, message: SECURITY_MESSAGES.sessionsClosed(1, 'ventas@gmail.com') })
  for (const gone of [seller, second]) {
    await expect(loadSecurity('', gone)).rejects.toSatisfy(
      (thrown: unknown) =>
        thrown instanceof Response && thrown.headers.get('Location')!.startsWith('/login-admin'),
    )
  }
})

test('a non-owner sees and closes only their own sessions, has no audit log and no export', async () => {
  const otherDevice = await signedInAs(t.db, config, 'ventas@gmail.com')
  const page = await loadSecurity('?ver=cambios', seller)
  expect(page.view).toBe('sesiones')
  expect(page.audit).toBeNull()
  expect(page.sessions.every((session) => session.email === 'ventas@gmail.com')).toBe(true)
  expect(page.sessions).toHaveLength(2)

  const ownerSession = (await loadSecurity('')).sessions.find((session) => session.email === ADMIN_EMAIL)!
  const refused = await run(security.action, '/admin/seguridad', seller, {
    intent: 'cerrar-sesion',
    id: ownerSession.id,
  })
  expect(refused).toMatchObject({ data: { ok: false, message: SECURITY_MESSAGES.notYours } })
  const refusedAll = await run(security.action, '/admin/seguridad', seller, {
    intent: 'cerrar-todas',
    email: ADMIN_EMAIL,
  })
  expect(refusedAll).toMatchObject({ data: { ok: false, message: SECURITY_MESSAGES.notYours } })

  // "Cerrar todas las demás": their other device goes, the one they use stays.
  const mine = await run(security.action, '/admin/seguridad', seller, {
    intent: 'cerrar-todas',
    email: 'ventas@gmail.com',
  })
  expect(mine).toMatchObject({ ok: true })
  await expect(loadSecurity('', otherDevice)).rejects.toBeInstanceOf(Response)
  expect((await loadSecurity('', seller)).sessions).toHaveLength(1)

  const csv = await run(securityCsv.loader, '/admin/seguridad/csv', seller).catch((thrown: unknown) => thrown)
  expect(csv).toMatchObject({ data: { message: TEAM_MESSAGES.forbidden }, init: { status: 403 } })
})

test('the sign-in history: everyone for owners, one person for themselves; searchable; exported', async () => {
  const device = {
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
    ipAddress: '181.1.1.1',
  }
  await recordSignIn(t.db, { email: 'ventas@gmail.com', outcome: 'ok', device })
  await recordSignIn(t.db, {
    email: 'intruso@gmail.com',
    outcome: 'no-autorizado',
    device: { userAgent: null, ipAddress: '5.5.5.5' },
  })
  const all = await loadSecurity('?ver=ingresos')
  expect(all.signIns!.total).toBe(2)
  expect(all.signIns!.signIns.find((row) => row.email === 'ventas@gmail.com')!.device).toBe('Safari en iOS')
  expect((await loadSecurity('?ver=ingresos&q=5.5.5')).signIns!.total).toBe(1)
  const own = await loadSecurity('?ver=ingresos', seller)
  expect(own.signIns!.signIns.map((row) => row.email)).toEqual(['ventas@gmail.com'])
  const csv = await (
    (await run(securityCsv.loader, '/admin/seguridad/csv?ver=ingresos', owner)) as Response
  ).text()
  expect(csv).toContain('Rechazado: no está en el equipo')
})

test('audit entries and sign-ins are kept a year', async () => {
  const now = new Date('2026-11-28T12:00:00Z')
  const old = new Date('2025-11-27T12:00:00Z')
  const recent = new Date('2025-11-29T12:00:00Z')
  for (const at of [old, recent]) {
    await t.db.insert(auditEntries).values({
      at,
      actorEmail: ADMIN_EMAIL,
      actorRole: 'owner',
      section: 'Productos',
      path: '/admin/productos',
      fields: {},
      changes: [],
      status: 200,
    })
    await recordSignIn(t.db, {
      email: ADMIN_EMAIL,
      outcome: 'ok',
      device: { userAgent: null, ipAddress: null },
      at,
    })
  }
  expect(await purgeOldAuditEntries(t.db, now)).toBe(1)
  expect(await purgeOldSignIns(t.db, now)).toBe(1)
  expect(await t.db.select().from(auditEntries)).toHaveLength(1)
  expect(await t.db.select().from(adminSignIns)).toHaveLength(1)
})
