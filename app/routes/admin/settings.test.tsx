import { count } from 'drizzle-orm'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, beforeEach, expect, test } from 'vitest'
import { ADMIN_MENU } from '#app/components/admin/menu.ts'
import { banners, settingChanges, settings } from '#app/modules/settings/schema.ts'
import { readCarrierSettings, readInvoiceSettings } from '#app/modules/settings/settings.server.ts'
import {
  BANNER_MESSAGES,
  SETTINGS_MESSAGES,
  SHIPPING_ZONE_MESSAGES,
} from '#app/modules/settings/validators.ts'
import type { Services } from '#app/services.server.ts'
import { ADMIN_SETTINGS_PATH } from '#app/utils/admin-paths.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import { testServices } from '#tests/services.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import * as storeLayout from '../tienda/layout.tsx'
import * as page from './settings.tsx'
import { CARRIER_ORIGIN_INCOMPLETE, CARRIERS_NOT_CONFIGURED } from './settings/settings-form.tsx'

/** /admin/configuraciones: the settings form, the banners and "Últimos cambios". */

const BASE = 'http://127.0.0.1:5562'
const t = setupTestDatabase()
let services: Services
const config = testAuthConfig(BASE)
const storage = memoryStorage()
let cookie = ''
let csrfToken = ''

beforeAll(async () => {
  services = testServices({
    database: t.database,
    auth: config,
    media: { storage, publicBase: '/media', kind: 'local' },
  })
  ;({ cookie, csrfToken } = await signedInAs(t.db, config, ADMIN_EMAIL))
})
beforeEach(async () => {
  await t.db.delete(settings)
  await t.db.delete(settingChanges)
  await t.db.delete(banners)
})

const load = (headers: Record<string, string> = { Cookie: cookie }, with_: Services = services) =>
  asAdminRoute(page.loader, {
    request: new Request(`${BASE}${ADMIN_SETTINGS_PATH}`, { headers }),
    url: new URL(`${BASE}${ADMIN_SETTINGS_PATH}`),
    params: {},
    context: routeContext(with_),
  } as never)

async function post(fields: Record<string, string | File>) {
  const form = new FormData()
  form.set('csrf', csrfToken)
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  const request = new Request(`${BASE}${ADMIN_SETTINGS_PATH}`, {
    method: 'POST',
    body: form,
    headers: { Cookie: cookie, Origin: BASE },
  })
  return asAdminRoute(page.action, { request, params: {}, context: routeContext(services) })
}

type Outcome = {
  ok: boolean
  message: string
  values?: Record<string, string> | null
  fieldErrors?: Record<string, string>
  bannerValues?: { alt: string; link: string }
}
const outcome = (answer: unknown) => ((answer as { data?: unknown }).data ?? answer) as Outcome
const statusOf = (answer: unknown) => (answer as { init?: { status?: number } }).init?.status ?? 200

/** The form as the page loads it: its fields and the values it was loaded with. */
async function currentForm() {
  const { values, loaded } = await load()
  return { ...values, loaded }
}

async function rowCounts() {
  const [saved] = await t.db.select({ n: count() }).from(settings)
  const [audited] = await t.db.select({ n: count() }).from(settingChanges)
  const [banner] = await t.db.select({ n: count() }).from(banners)
  return { saved: saved!.n, audited: audited!.n, banners: banner!.n }
}

async function render(with_: Services = services) {
  const loaderData = await load({ Cookie: cookie }, with_)
  const Page = page.default as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'page', path: ADMIN_SETTINGS_PATH, Component: Page, loader: () => loaderData },
  ])
  return renderToString(
    <Stub initialEntries={[ADMIN_SETTINGS_PATH]} hydrationData={{ loaderData: { page: loaderData } }} />,
  )
}

/** The storefront layout's loader reads the settings on every request. */
const storeInfo = async () =>
  (
    await storeLayout.loader({
      request: new Request(`${BASE}/`),
      params: {},
      context: routeContext(services),
    } as never)
  ).store

test('the menu entry "Configuraciones" is live and the page is for admins only', async () => {
  expect(ADMIN_MENU.find((entry) => entry.label === 'Configuraciones')?.to).toBe('/admin/configuraciones')
  await expect(load({})).rejects.toBeInstanceOf(Response)
})

test('a save applies to the storefront at once and shows in "Últimos cambios" with who made it', async () => {
  expect((await storeInfo()).shipping.shippingCost).toBe(0)
  const answer = await post({
    intent: 'guardar',
    ...(await currentForm()),
    shippingCost: '12000',
    whatsappText: 'Hola, vi un collar en la tienda',
    sellerLegalName: 'Bisutería Nueva S.A.S.',
  })
  expect(outcome(answer)).toMatchObject({ ok: true, message: SETTINGS_MESSAGES.saved })

  const store = await storeInfo()
  expect(store.shipping.shippingCost).toBe(12_000_00)
  expect(store.whatsappText).toBe('Hola, vi un collar en la tienda')
  expect(store.seller.legalName).toBe('Bisutería Nueva S.A.S.')

  const html = await render()
  expect(html).toContain('Últimos cambios')
  expect(html.match(/data-testid="setting-change"/g)).toHaveLength(3)
  expect(html).toContain(ADMIN_EMAIL)
  expect(html).toContain('Costo de envío')
  expect(html).toMatch(/\$\s12\.000,00/)
  expect(html).toContain('value="12000"')
})

test('a refused save keeps what was typed, marks the fields and writes nothing', async () => {
  const answer = await post({
    intent: 'guardar',
    ...(await currentForm()),
    shippingCost: '-500',
    whatsappNumber: '12345',
    sellerEmail: 'correo-malo',
    deliveryTime: 'Entrega mañana',
  })
  expect(statusOf(answer)).toBe(422)
  const result = outcome(answer)
  expect(result).toMatchObject({ ok: false, message: SETTINGS_MESSAGES.invalid })
  expect(result.fieldErrors).toEqual({
    shippingCost: SETTINGS_MESSAGES.moneyWhole('Costo de envío'),
    whatsappNumber: SETTINGS_MESSAGES.phone,
    sellerEmail: SETTINGS_MESSAGES.email,
  })
  expect(result.values).toMatchObject({
    shippingCost: '-500',
    sellerEmail: 'correo-malo',
    deliveryTime: 'Entrega mañana',
  })
  expect(await rowCounts()).toEqual({ saved: 0, audited: 0, banners: 0 })
})

test('the sessions card (issue 23): bad limits refused field by field in Spanish, as typed, nothing saved', async () => {
  const html = await render()
  expect(html).toContain('data-testid="session-limits"')
  expect(html).toContain('Sesiones de administración')
  expect(html).toContain('Cierre por inactividad (minutos)')
  expect(html).toContain('value="720"')
  expect(html).toContain('Duración máxima de la sesión (horas)')
  expect(html).toContain('value="168"')

  const form = await currentForm()
  const refused = await post({ intent: 'guardar', ...form, adminIdleMinutes: '5', adminSessionHours: '1000' })
  expect(statusOf(refused)).toBe(422)
  expect(outcome(refused)).toMatchObject({
    ok: false,
    message: SETTINGS_MESSAGES.invalid,
    fieldErrors: {
      adminIdleMinutes:
        'Cierre por inactividad (minutos): escribe un número entero de minutos entre 15 y 10.080 (7 días).',
      adminSessionHours:
        'Duración máxima de la sesión (horas): escribe un número entero de horas entre 1 y 720 (30 días).',
    },
    values: { adminIdleMinutes: '5', adminSessionHours: '1000' },
  })
  const longer = await post({ intent: 'guardar', ...form, adminIdleMinutes: '600', adminSessionHours: '8' })
  expect(outcome(longer).fieldErrors).toEqual({
    adminIdleMinutes: 'El cierre por inactividad no puede ser más largo que la duración máxima de la sesión.',
  })
  expect(await rowCounts()).toEqual({ saved: 0, audited: 0, banners: 0 })

  const saved = await post({ intent: 'guardar', ...form, adminIdleMinutes: '45', adminSessionHours: '24' })
  expect(outcome(saved)).toMatchObject({ ok: true, message: SETTINGS_MESSAGES.saved })
  expect((await currentForm()).adminIdleMinutes).toBe('45')
  expect(await rowCounts()).toEqual({ saved: 2, audited: 2, banners: 0 })
})

/** The "Cuándo emitir la factura" radio of `value`, as rendered. */
const triggerRadio = (html: string, value: string) =>
  html.match(new RegExp(`<input type="radio" name="invoiceTrigger"[^>]*value="${value}"/>`))?.[0] ?? ''

test('the electronic invoice card: automatic and 19 % at first; a change is kept, refused junk is not, and "Últimos cambios" words it', async () => {
  const html = await render()
  expect(html).toContain('data-testid="invoice-settings"')
  expect(html).toContain('Facturación electrónica')
  expect(html).toContain('Cuándo emitir la factura')
  expect(triggerRadio(html, 'auto')).toContain('checked=""')
  expect(html).toContain(
    'value="auto"/>Automáticamente: al confirmarse el pago en línea, o al entregar un pedido contra entrega</label>',
  )
  expect(triggerRadio(html, 'manual')).not.toContain('checked')
  expect(html).toContain('value="manual"/>Solo cuando la emita desde el pedido</label>')
  expect(html).toContain('IVA por defecto de los productos')
  expect(html).toMatch(/<option value="19" selected="">19 %<\/option>/)
  expect(html).toContain('<option value="excluded">Excluido</option>')

  const form = await currentForm()
  expect(form).toMatchObject({ invoiceTrigger: 'auto', defaultVat: '19' })
  const refused = await post({ intent: 'guardar', ...form, invoiceTrigger: 'siempre', defaultVat: '16' })
  expect(statusOf(refused)).toBe(422)
  expect(outcome(refused)).toMatchObject({
    ok: false,
    fieldErrors: {
      invoiceTrigger: 'Elige cuándo emitir la factura electrónica.',
      defaultVat: 'Elige el IVA por defecto de los productos entre las opciones de la lista.',
    },
    values: { invoiceTrigger: 'siempre', defaultVat: '16' },
  })
  expect(await rowCounts()).toEqual({ saved: 0, audited: 0, banners: 0 })

  const saved = await post({ intent: 'guardar', ...form, invoiceTrigger: 'manual', defaultVat: 'exempt' })
  expect(outcome(saved)).toMatchObject({ ok: true, message: SETTINGS_MESSAGES.saved })
  expect(await rowCounts()).toEqual({ saved: 2, audited: 2, banners: 0 })
  expect(await readInvoiceSettings(t.db)).toEqual({ trigger: 'manual', defaultVat: 'exempt' })

  const after = await render()
  expect(triggerRadio(after, 'manual')).toContain('checked=""')
  expect(triggerRadio(after, 'auto')).not.toContain('checked')
  expect(after).toMatch(/<option value="exempt" selected="">Exento<\/option>/)
  const history = after.slice(after.indexOf('data-testid="setting-changes"'))
  expect(history).toContain('Cuándo emitir la factura')
  expect(history).toContain(
    'Automáticamente: al confirmarse el pago en línea, o al entregar un pedido contra entrega</span> → <span>Solo cuando la emita desde el pedido',
  )
  expect(history).toContain('IVA por defecto de los productos')
  expect(history).toContain('19 %</span> → <span>Exento')
})

test('banners: added from an upload, moved, hidden and deleted; bad input refused with Spanish messages', async () => {
  const image = async (name: string, color: string, width: number, height: number) => {
    const { bytes } = await pngUpload(name, color, width, height)
    return new File([new Uint8Array(bytes)], name, { type: 'image/png' })
  }
  const refused = await post({
    intent: 'banner-crear',
    alt: 'Aretes',
    link: 'http://sin-https.example',
    active: 'on',
    desktop: await image('ancho.png', '#16a085', 160, 60),
  })
  expect(outcome(refused)).toMatchObject({
    ok: false,
    message: BANNER_MESSAGES.link,
    bannerValues: { alt: 'Aretes', link: 'http://sin-https.example' },
  })
  expect(await rowCounts()).toEqual({ saved: 0, audited: 0, banners: 0 })

  for (const alt of ['Primero', 'Segundo']) {
    const added = await post({
      intent: 'banner-crear',
      alt,
      link: '/buscar?q=collar',
      active: 'on',
      desktop: await image('ancho.png', '#16a085', 160, 60),
      mobile: await image('celular.png', '#2c3e50', 70, 70),
    })
    expect(outcome(added)).toMatchObject({ ok: true, message: BANNER_MESSAGES.created })
  }
  let listed = (await load()).banners
  expect(listed.map((banner) => banner.alt)).toEqual(['Primero', 'Segundo'])
  const [first, second] = listed

  expect(outcome(await post({ intent: 'banner-mover', id: String(second!.id), to: '0' }))).toMatchObject({
    ok: false,
    message: BANNER_MESSAGES.position,
  })
  await post({ intent: 'banner-mover', id: String(second!.id), to: 'arriba' })
  await post({ intent: 'banner-editar', id: String(first!.id), alt: 'Primero', link: '' })
  listed = (await load()).banners
  expect(listed.map(({ alt, active, position }) => ({ alt, active, position }))).toEqual([
    { alt: 'Segundo', active: true, position: 1 },
    { alt: 'Primero', active: false, position: 2 },
  ])

  const html = await render()
  expect(html.match(/data-testid="banner-item"/g)).toHaveLength(2)
  expect(html).toContain('Banner agregado')

  expect(outcome(await post({ intent: 'banner-eliminar', id: String(first!.id) }))).toMatchObject({
    ok: true,
    message: BANNER_MESSAGES.deleted,
  })
  expect((await load()).banners.map((banner) => banner.alt)).toEqual(['Segundo'])
  expect(outcome(await post({ intent: 'banner-eliminar', id: String(first!.id) }))).toMatchObject({
    ok: false,
    message: BANNER_MESSAGES.notFound,
  })
  expect(outcome(await post({ intent: 'otra-cosa' }))).toMatchObject({
    ok: false,
    message: BANNER_MESSAGES.badRequest,
  })
})

test('"Envío por zona": a zone saved, refused as typed, replaced, listed with "Quitar" and removed', async () => {
  let html = await render()
  expect(html).toContain('Envío por zona')
  expect(html).toContain('data-testid="shipping-zones-empty"')
  // One optgroup per department: its own option first, then its municipalities.
  const zoneForm = html.slice(html.indexOf('data-testid="shipping-zone-form"'))
  expect(zoneForm.match(/<optgroup /g)).toHaveLength(33)
  expect(html).toMatch(
    /<optgroup label="Antioquia"><option value="05">Antioquia \(todo el departamento\)<\/option><option value="\d{5}">/,
  )
  expect(html).toContain('<option value="05001">Medellín</option>')
  expect(html).toContain('Costo de envío (vacío: costo general)')
  expect(html).toMatch(/<input type="checkbox" name="cashOnDelivery" class="[^"]*" checked=""/)

  const refused = await post({ intent: 'zona-guardar', code: '05999', cost: '8.000,5', cashOnDelivery: 'on' })
  expect(statusOf(refused)).toBe(422)
  expect(outcome(refused)).toMatchObject({
    ok: false,
    message: SETTINGS_MESSAGES.invalid,
    fieldErrors: {
      code: SHIPPING_ZONE_MESSAGES.code,
      cost: SETTINGS_MESSAGES.moneyWhole('Costo de envío'),
    },
    zoneValues: { code: '05999', cost: '8.000,5', cashOnDelivery: true },
  })
  expect(await rowCounts()).toEqual({ saved: 0, audited: 0, banners: 0 })

  const saved = await post({ intent: 'zona-guardar', code: '05001', cost: '12.000' })
  expect(outcome(saved)).toMatchObject({ ok: true, message: SHIPPING_ZONE_MESSAGES.saved })
  await post({ intent: 'zona-guardar', code: '05', cost: '', cashOnDelivery: 'on' })
  expect(
    outcome(await post({ intent: 'zona-guardar', code: '05', cost: '', cashOnDelivery: 'on' })),
  ).toMatchObject({ ok: true, message: SHIPPING_ZONE_MESSAGES.unchanged })
  expect((await load()).shippingZones).toEqual([
    { code: '05', cost: null, cashOnDelivery: true, place: 'Antioquia (todo el departamento)' },
    { code: '05001', cost: 12_000_00, cashOnDelivery: false, place: 'Medellín (Antioquia)' },
  ])

  html = await render()
  const rows = html.match(/<tr data-testid="shipping-zone".*?<\/tr>/g) ?? []
  expect(rows).toHaveLength(2)
  expect(rows[0]).toContain('Antioquia (todo el departamento)')
  expect(rows[0]).toContain('Costo general')
  expect(rows[0]).toContain('>Sí<')
  expect(rows[1]).toContain('Medellín (Antioquia)')
  expect(rows[1]).toMatch(/\$\s12\.000,00/)
  expect(rows[1]).toContain('>No<')
  expect(rows[1]).toMatch(/name="intent" value="zona-quitar".*name="code" value="05001".*Quitar/)
  // "Últimos cambios" says which zone, in words.
  expect(html).toContain('Medellín (Antioquia): $\u00a012.000,00, contra entrega: no')

  expect(outcome(await post({ intent: 'zona-quitar', code: '05001' }))).toMatchObject({
    ok: true,
    message: SHIPPING_ZONE_MESSAGES.removed,
  })
  expect((await load()).shippingZones.map((zone) => zone.code)).toEqual(['05'])
  const gone = await post({ intent: 'zona-quitar', code: '05001' })
  expect(statusOf(gone)).toBe(404)
  expect(outcome(gone)).toMatchObject({ ok: false, message: SHIPPING_ZONE_MESSAGES.notFound })
  expect(await rowCounts()).toEqual({ saved: 1, audited: 3, banners: 0 })
})

test('"Envíos con transportadora": the card, its notices, a refusal as typed and a save "Últimos cambios" words', async () => {
  let html = await render()
  const card = (page: string) =>
    page.slice(page.indexOf('data-testid="carrier-settings"'), page.indexOf('Guardar configuración'))
  let carrier = card(html)
  expect(carrier).toContain('Envíos con transportadora')
  expect(carrier).toContain('Costo de envío en el checkout')
  expect(carrier).toMatch(/<option value="flat" selected="">Costo fijo de envío \(y las zonas\)<\/option>/)
  expect(carrier).toContain('<option value="coordinadora">Cotización en vivo: Coordinadora</option>')
  expect(carrier).toContain('razón social, el NIT y el correo de contacto')
  // Envia is not configured in tests: the card says what that means.
  expect(carrier).toContain(CARRIERS_NOT_CONFIGURED)
  expect(CARRIERS_NOT_CONFIGURED).toBe(
    'Envia no está configurado (ENVIA_TOKEN): el checkout usa el costo fijo y los pedidos no generan guías (se marcan enviados a mano).',
  )
  // The pickup municipality: "Sin definir", then municipalities only, grouped by department.
  const municipality = carrier.match(/<select id="setting-carrierOriginMunicipality"[\s\S]*?<\/select>/)![0]
  expect(municipality).toMatch(
    /^<select[^>]*><option value="" selected="">Sin definir<\/option><optgroup label=/,
  )
  expect(municipality.match(/<optgroup /g)).toHaveLength(33)
  expect(municipality).toMatch(
    /<optgroup label="Antioquia"><option value="05002">Abejorral<\/option>.*<option value="05001">Medellín<\/option>/,
  )
  expect(municipality).not.toMatch(/<option value="\d{2}">/)
  for (const label of [
    'Dirección de recogida',
    'Teléfono de recogida',
    'Peso del paquete por defecto (g)',
    'Largo del paquete por defecto (cm)',
    'Ancho del paquete por defecto (cm)',
    'Alto del paquete por defecto (cm)',
    'Completar al entregar',
  ])
    expect(carrier).toContain(label)
  expect(carrier).toMatch(/name="parcelWeightGrams"[^>]*value="300"/)
  expect(carrier).toMatch(/<option value="no" selected="">No: lo marco Completado yo<\/option>/)

  // With Envia configured, an incomplete pickup is what the card warns about.
  const withEnvia = testServices({
    database: t.database,
    auth: config,
    media: { storage, publicBase: '/media', kind: 'local' },
    env: parseEnv({ ENVIA_TOKEN: 'token-de-prueba' }),
  })
  expect((await load({ Cookie: cookie }, withEnvia)).carriersConfigured).toBe(true)
  carrier = card(await render(withEnvia))
  expect(carrier).not.toContain(CARRIERS_NOT_CONFIGURED)
  expect(carrier).toContain(CARRIER_ORIGIN_INCOMPLETE)

  const form = await currentForm()
  const refused = await post({
    intent: 'guardar',
    ...form,
    carrierOriginMunicipality: '05999',
    carrierOriginPhone: '12345',
    parcelWeightGrams: '0',
  })
  expect(statusOf(refused)).toBe(422)
  expect(outcome(refused)).toMatchObject({
    ok: false,
    message: SETTINGS_MESSAGES.invalid,
    fieldErrors: {
      carrierOriginMunicipality: SETTINGS_MESSAGES.originMunicipality,
      carrierOriginPhone: SETTINGS_MESSAGES.originPhone,
      parcelWeightGrams: 'Peso del paquete por defecto (g): escribe un número entero entre 1 y 50.000.',
    },
    values: { carrierOriginMunicipality: '05999', carrierOriginPhone: '12345', parcelWeightGrams: '0' },
  })
  expect(await rowCounts()).toEqual({ saved: 0, audited: 0, banners: 0 })

  const saved = await post({
    intent: 'guardar',
    ...form,
    carrierQuotes: 'cheapest',
    carrierOriginStreet: 'Calle 10 # 43-12',
    carrierOriginMunicipality: '05001',
    carrierOriginPhone: '+57 300 123 4567',
    completeOnDelivery: 'yes',
  })
  expect(outcome(saved)).toMatchObject({ ok: true, message: SETTINGS_MESSAGES.saved })
  expect(await readCarrierSettings(t.db, services.env)).toMatchObject({
    quotes: 'cheapest',
    origin: { street: 'Calle 10 # 43-12', municipalityCode: '05001', phone: '3001234567' },
    completeOnDelivery: true,
  })

  html = await render(withEnvia)
  carrier = card(html)
  expect(carrier).not.toContain('data-testid="carrier-notice"')
  expect(carrier).toMatch(/<option value="05001" selected="">Medellín<\/option>/)
  expect(carrier).toMatch(/name="carrierOriginPhone"[^>]*value="3001234567"/)
  const history = html.slice(html.indexOf('data-testid="setting-changes"'))
  expect(history).toContain('Municipio de recogida')
  expect(history).toContain('Sin definir</span> → <span>Medellín (Antioquia)')
  expect(history).toContain(
    'Costo fijo de envío (y las zonas)</span> → <span>Cotización en vivo: la transportadora más barata',
  )
  expect(history).toContain(
    'No: lo marco Completado yo</span> → <span>Sí: el pedido pasa a Completado cuando la transportadora lo entrega',
  )
})

test('"Pagos": the card says which online providers this server lacks, and offers transfers', async () => {
  const card = (page: string) =>
    page.slice(page.indexOf('data-testid="payment-settings"'), page.indexOf('Guardar configuración'))
  // Simulated on this machine: both providers are there.
  let payment = card(await render())
  expect(payment).toContain('Transferencia / Bre-B')
  expect(payment).toContain('Llave Bre-B')
  expect(payment).not.toContain('Sin configurar en este servidor')
  const without: Services = {
    ...services,
    checkout: { ...services.checkout, onlinePayments: { mercadopago: false, wompi: true } },
  }
  payment = card(await render(without))
  expect(payment).toContain(
    'Sin configurar en este servidor: no se ofrece hasta que se configuren MP_ACCESS_TOKEN y MP_WEBHOOK_SECRET (Mercado Pago).',
  )
  expect(payment).not.toContain('(Wompi).')
})
