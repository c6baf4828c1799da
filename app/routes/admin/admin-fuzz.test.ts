import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, test, vi } from 'vitest'
import { STOCK_CHANNELS } from '#app/jobs/stock-channels.ts'
import { CSRF_FIELD, CSRF_HEADER } from '#app/modules/auth/csrf.ts'
import { DEFAULT_LOCATION } from '#app/modules/inventory/locations.ts'
import { orders } from '#app/modules/order/schema.ts'
import { recordLedgerPayment } from '#app/modules/payment/ledger.server.ts'
import { readMessageSettings } from '#app/modules/messages/messages.server.ts'
import { messageDefaults, messagesAsFormValues } from '#app/modules/messages/validators.ts'
import { readStoreSettings, settingDefaults } from '#app/modules/settings/settings.server.ts'
import { settingsAsFormValues } from '#app/modules/settings/validators.ts'
import { startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { addTeamMember, ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { asAdminRoute } from '#tests/routes.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import {
  answerOf,
  freshContext,
  fuzzedForm,
  fuzzEndpoint,
  formBody,
  hostileText,
  reportInputsTried,
  FUZZ_RUNS,
  type Encoding,
  type FormFields,
} from '#tests/fuzz.ts'
import { ADMIN_FUZZ_TARGETS } from '#tests/fuzz-targets.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import { placeTestOrder } from '#tests/orders.ts'
import * as categoryForm from './categories/form.tsx'
import * as categoryList from './categories/list.tsx'
import * as channels from './channels.tsx'
import * as dashboard from './dashboard.tsx'
import * as login from './login.tsx'
import * as logout from './logout.ts'
import * as orderDetail from './orders/detail.tsx'
import * as createProductRoute from './products/create.tsx'
import * as editProduct from './products/edit.tsx'
import * as inventory from './products/inventory.tsx'
import * as saveProduct from './products/save.ts'
import * as salesPayments from './sales/payments.tsx'
import * as messages from './messages.tsx'
import * as seoSettings from './seo.tsx'
import * as settings from './settings.tsx'
import * as stockEntry from './stock/entry.tsx'
import * as stockExit from './stock/exit.tsx'
import * as promotionForm from './promotions/form.tsx'
import * as promotionList from './promotions/list.tsx'
import * as security from './security.tsx'
import * as team from './team.tsx'
import { createPromotion } from '#app/modules/promotions/admin-promotions.server.ts'
import { NEW_PROMOTION_VALUES } from '#app/modules/promotions/validators.ts'

/**
 * Issue 11: every back-office action fed malformed, huge, wrong-typed and hostile values
 * (tests/fuzz.ts) by a signed-in admin with a valid anti-forgery token, so the values reach the
 * validation: never a 5xx, a Spanish message whenever it refuses, and a refusal writes nothing.
 * The same actions are fuzzed once more without a session or token: the guard answers cleanly.
 */

// A loopback address where nothing listens: the sign-in provider cannot be reached.
const BASE = 'http://127.0.0.1:9'
const t = setupTestDatabase()
let services: Awaited<ReturnType<typeof startServices>>
const config = testAuthConfig(BASE)
let admin: Awaited<ReturnType<typeof signedInAs>>
let categoryId: string
let sku: string
let settingsForm: FormFields
let messagesForm: FormFields
/** A real PNG, as a browser uploads it (new products need one). */
let photo: File

beforeAll(async () => {
  // The real job queue: a refusal must not enqueue a job either (pgboss.job is compared too).
  services = await startServices(parseEnv({ PUBLIC_URL: BASE }), t.database, {
    workers: false,
    auth: config,
    media: { kind: 'local', storage: memoryStorage(), publicBase: '/media/' },
  })
  vi.spyOn(logger, 'error').mockImplementation(() => {})
  vi.spyOn(logger, 'warn').mockImplementation(() => {})
  admin = await signedInAs(t.db, config, ADMIN_EMAIL)
  const png = await pngUpload()
  photo = new File([new Uint8Array(png.bytes)], png.name, { type: 'image/png' })
  categoryId = (await createCategory(t.db)).id
  sku = (await createProduct(t.db, { stock: 1_000_000, categoryIds: [categoryId] })).sku
  const current = await readStoreSettings(t.db, settingDefaults(services.env))
  settingsForm = { ...settingsAsFormValues(current), intent: 'guardar', loaded: JSON.stringify(current) }
  const messagesNow = await readMessageSettings(t.db, messageDefaults(services.env.WHATSAPP_NOTIFY_NUMBERS))
  messagesForm = {
    ...messagesAsFormValues(messagesNow),
    notifyNumbers: '300 123 4567\n3109876543',
    confirmedOn: 'on',
    intent: 'guardar',
    loaded: JSON.stringify(messagesNow),
  }
})
afterAll(async () => {
  reportInputsTried('admin-fuzz')
  await services.stop()
  vi.restoreAllMocks()
})

type Form = { fields: [string, string | File][]; how: Encoding; junk: { type: string; body: string } }
type Handler = (args: never) => unknown

/** A sentinel in generated fields for a value only known once the fixtures exist. */
const REAL = 'valor-real'
/** Likewise the shared category, which has a product in it (deleting it is refused). */
const WITH_PRODUCTS = 'con-productos'

/** Posts `form` to `handler` as the signed-in admin, with the token in the form and the header. */
function asAdmin(handler: Handler, path: string, form: Form, params: Record<string, string> = {}) {
  const fields = form.fields.map(([name, value]): [string, string | File] => [
    name,
    value === REAL ? realValue(name) : value,
  ])
  const { body, headers } = formBody([[CSRF_FIELD, admin.csrfToken], ...fields], form.how, form.junk)
  const request = new Request(`${BASE}${path}`, {
    method: 'POST',
    body,
    headers: { ...headers, Cookie: admin.cookie, Origin: BASE, [CSRF_HEADER]: admin.csrfToken },
  })
  return answerOf(() => asAdminRoute(handler, { request, params, context: freshContext(services) }))
}

function realValue(name: string) {
  if (name === 'categoryIds') return categoryId
  return sku
}

const productBase = (): FormFields => ({
  name: 'Collar Luna',
  description: 'Collar dorado con dije de luna',
  categoryIds: [REAL],
  cost: '12000',
  level1: '45000.5',
  discountPercent: '10',
  purchaseLink: 'https://proveedor.example/luna',
  supplierInfo: 'Proveedor Medellín',
  showWholesale: 'on',
  showRetail: 'on',
  images: photo,
  mainImage: 'nueva:0',
  seoTitle: 'Collar Luna dorado | Envío gratis',
  seoDescription: 'Collar dorado con dije de luna, pago contra entrega.',
  slug: 'collar-luna',
})
/** The "SEO" fields' own edge cases (product and category forms). */
const SEO_OPTIONS = {
  slug: ['', '---', 'Collar Corazón Ñandú', '💎', 'a'.repeat(121), '../../admin'],
  seoTitle: ['', 'T'.repeat(121)],
}
const PRODUCT_OPTIONS = {
  ...SEO_OPTIONS,
  mainImage: ['nueva:0', 'nueva:-1', 'existente:1', 'existente:abc'],
  level5: ['1000', '-1', '99999999999'],
  images: ['no-es-un-archivo'],
}

const fuzzers: Record<(typeof ADMIN_FUZZ_TARGETS)[number], () => Promise<void>> = {
  'routes/admin/login.tsx': () =>
    fuzzEndpoint(
      'POST /login-admin',
      t.database,
      fc.record({ form: fuzzedForm({}), volver: hostileText }),
      ({ form, volver }) => {
        const url = new URL(`${BASE}/login-admin`)
        url.searchParams.set('volver', volver)
        const { body, headers } = formBody(form.fields, form.how, form.junk)
        const request = new Request(url, { method: 'POST', body, headers: { ...headers, Origin: BASE } })
        return answerOf(() => login.action({ request, params: {}, context: freshContext(services) } as never))
      },
    ),

  'routes/admin/logout.ts': () =>
    fuzzEndpoint(
      'POST /logout',
      t.database,
      fuzzedForm({ [CSRF_FIELD]: REAL }),
      (form, session) => {
        const fields = form.fields.map(([name, value]): [string, string | File] => [
          name,
          value === REAL ? session.csrfToken : value,
        ])
        const { body, headers } = formBody(fields, form.how, form.junk)
        const request = new Request(`${BASE}/logout`, {
          method: 'POST',
          body,
          headers: { ...headers, Cookie: session.cookie, Origin: BASE },
        })
        return answerOf(() =>
          logout.action({ request, params: {}, context: freshContext(services) } as never),
        )
      },
      // Its own session each time: signing out must not end the admin's.
      { fixture: () => signedInAs(t.db, config, ADMIN_EMAIL) },
    ),

  'routes/admin/dashboard.tsx': () =>
    fuzzEndpoint(
      'POST /admin',
      t.database,
      fuzzedForm({ intent: 'revisada', jobId: randomUUID() }, { intent: ['revisada'] }),
      (form) => asAdmin(dashboard.action, '/admin', form),
    ),

  'routes/admin/products/create.tsx': () =>
    fuzzEndpoint(
      'POST /admin/productos/crear',
      t.database,
      fuzzedForm(productBase(), PRODUCT_OPTIONS),
      (form) => asAdmin(createProductRoute.action, '/admin/productos/crear', form),
    ),

  'routes/admin/products/edit.tsx': () =>
    fuzzEndpoint(
      'POST /admin/productos/editar/:sku',
      t.database,
      fc.record({
        form: fuzzedForm(
          { ...productBase(), loadedCost: '12000' },
          {
            ...PRODUCT_OPTIONS,
            intent: ['principal', 'eliminar-imagen', 'guardar'],
            mediaId: ['1', '-1', '1e308'],
          },
        ),
        sku: fc.oneof(fc.constant(REAL), hostileText),
      }),
      ({ form, sku: param }) =>
        asAdmin(editProduct.action, '/admin/productos/editar/x', form, { sku: param === REAL ? sku : param }),
    ),

  'routes/admin/products/inventory.tsx': () =>
    fuzzEndpoint(
      'POST /admin/productos',
      t.database,
      fuzzedForm({ intent: 'eliminar', sku: REAL }, { sku: ['NO-EXISTE'] }),
      (form, throwaway) =>
        asAdmin(inventory.action, '/admin/productos', {
          ...form,
          // Deleting is the one success here: a product of its own each time, not the shared one.
          fields: form.fields.map(([name, value]) => [
            name,
            name === 'sku' && value === REAL ? throwaway : value,
          ]),
        }),
      { fixture: async () => (await createProduct(t.db)).sku },
    ),

  'routes/admin/products/save.ts': () =>
    fuzzEndpoint(
      'POST /admin/productos/guardar',
      t.database,
      fuzzedForm({ ...productBase(), loadedCost: '12000' }, { ...PRODUCT_OPTIONS, sku: [REAL, 'NO-EXISTE'] }),
      (form) => asAdmin(saveProduct.action, '/admin/productos/guardar', form),
    ),

  'routes/admin/stock/entry.tsx': () =>
    fuzzEndpoint(
      'POST /admin/productos/entrada',
      t.database,
      fuzzedForm(
        {
          sku: REAL,
          quantity: '2',
          unitPrice: '1000',
          location: DEFAULT_LOCATION,
          receipt: 'F-1',
          note: 'nota',
        },
        { location: ['P1-C1-A1-E1-X1-Y1-Z2', 'p1-c1', 'P0-C0-A0-E0-X0-Y0-Z0'] },
      ),
      (form) => asAdmin(stockEntry.action, '/admin/productos/entrada', form),
    ),

  'routes/admin/stock/exit.tsx': () =>
    fuzzEndpoint(
      'POST /admin/productos/salida',
      t.database,
      fuzzedForm(
        { sku: REAL, quantity: '1', location: DEFAULT_LOCATION, receipt: 'F-2', note: 'nota' },
        { editPrice: ['on'], unitPrice: ['1000', '0', '-5'] },
      ),
      (form) => asAdmin(stockExit.action, '/admin/productos/salida', form),
    ),

  'routes/admin/categories/form.tsx': () =>
    fuzzEndpoint(
      'POST /admin/categorias/{crear,editar/:id}',
      t.database,
      fc.record({
        form: fuzzedForm(
          {
            name: 'Collares',
            seoTitle: 'Collares de moda',
            seoDescription: 'Collares dorados.',
            slug: 'collares',
          },
          { image: ['no-es-un-archivo'], ...SEO_OPTIONS },
        ),
        id: fc.option(fc.oneof(fc.constant(REAL), hostileText), { nil: undefined }),
      }),
      ({ form, id }) =>
        asAdmin(
          categoryForm.action,
          id === undefined ? '/admin/categorias/crear' : '/admin/categorias/editar/x',
          form,
          id === undefined ? {} : { id: id === REAL ? categoryId : id },
        ),
    ),

  'routes/admin/categories/list.tsx': () =>
    fuzzEndpoint(
      'POST /admin/categorias',
      t.database,
      fuzzedForm({ intent: 'eliminar', id: REAL }, { id: ['Categoria_0', WITH_PRODUCTS] }),
      (form, throwaway) =>
        asAdmin(categoryList.action, '/admin/categorias', {
          ...form,
          // Deleting is the one success here: an empty category of its own each time; the shared
          // one, with a product in it, is refused.
          fields: form.fields.map(([name, value]) => [
            name,
            name !== 'id' ? value : value === REAL ? throwaway : value === WITH_PRODUCTS ? categoryId : value,
          ]),
        }),
      { fixture: async () => (await createCategory(t.db)).id },
    ),

  'routes/admin/promotions/form.tsx': () =>
    fuzzEndpoint(
      'POST /admin/descuentos/{nueva,editar/:id}',
      t.database,
      fc.record({
        form: fuzzedForm(
          {
            name: 'Bienvenida',
            kind: 'codigo',
            code: 'HOLA10',
            benefit: 'percent',
            target: 'products',
            percent: '10',
            amount: '15.000',
            buyQuantity: '3',
            payQuantity: '2',
            productSkus: REAL,
            categoryIds: REAL,
            minSubtotal: '50.000',
            startsAt: '2026-11-27T00:00',
            endsAt: '2026-11-30T23:59',
            maxUses: '50',
            maxUsesPerCustomer: '1',
            combinable: 'on',
            active: 'on',
          },
          {
            kind: ['codigo', 'automatica'],
            benefit: ['percent', 'fixed', 'buy_x_pay_y', 'set_discount'],
            target: ['order', 'products', 'shipping'],
            startsAt: ['2026-02-30T10:00', '9999-12-31T23:59'],
            amount: ['0', '99999999', '15,5'],
          },
        ),
        id: fc.option(fc.oneof(fc.constant(REAL), hostileText), { nil: undefined }),
      }),
      ({ form, id }, promotionId) =>
        asAdmin(
          promotionForm.action,
          id === undefined ? '/admin/descuentos/nueva' : '/admin/descuentos/editar/x',
          form,
          id === undefined ? {} : { id: id === REAL ? promotionId : id },
        ),
      // A promotion of its own each time (a valid edit changes it for good).
      {
        fixture: async () =>
          String(
            (
              await createPromotion(t.db, {
                ...NEW_PROMOTION_VALUES,
                name: 'Fuzz',
                code: `F${randomUUID().slice(0, 8)}`,
              })
            ).id,
          ),
      },
    ),

  'routes/admin/promotions/list.tsx': () =>
    fuzzEndpoint(
      'POST /admin/descuentos',
      t.database,
      fuzzedForm(
        { intent: 'pausar', id: REAL },
        { intent: ['duplicar', 'pausar', 'reanudar', 'terminar'], id: ['0', '-1', '1e308', '999999'] },
      ),
      (form, promotionId) =>
        asAdmin(promotionList.action, '/admin/descuentos', {
          ...form,
          fields: form.fields.map(([name, value]) => [
            name,
            name === 'id' && value === REAL ? promotionId : value,
          ]),
        }),
      {
        fixture: async () =>
          String(
            (
              await createPromotion(t.db, {
                ...NEW_PROMOTION_VALUES,
                name: 'Fuzz',
                code: `F${randomUUID().slice(0, 8)}`,
              })
            ).id,
          ),
      },
    ),

  'routes/admin/channels.tsx': () =>
    fuzzEndpoint(
      'POST /admin/canales',
      t.database,
      fuzzedForm(
        { intent: 'diferencias', canal: STOCK_CHANNELS[0] },
        {
          intent: ['reintentar', 'diferencias', 'sincronizar-todo'],
          canal: STOCK_CHANNELS,
          sku: [REAL],
          desde: [REAL],
        },
      ),
      (form) => asAdmin(channels.action, '/admin/canales', form),
    ),

  'routes/admin/orders/detail.tsx': () =>
    fuzzEndpoint(
      'POST /admin/pedidos/detalle/:id',
      t.database,
      fc.record({
        form: fuzzedForm(
          { intent: 'enviar', carrier: 'Servientrega', trackingNumber: '123456', reason: 'Sin pago' },
          { intent: ['enviar', 'pagado', 'cancelar', 'completar', 'confirmar'] },
        ),
        id: fc.oneof(fc.constant(REAL), fc.constant(randomUUID()), hostileText),
      }),
      ({ form, id }, orderId) =>
        asAdmin(orderDetail.action, '/admin/pedidos/detalle/x', form, { id: id === REAL ? orderId : id }),
      {
        // An order of its own each time: a valid step (ship, cancel…) moves it on for good.
        // …of a product of its own: the stock fuzz above may have sold the shared one out.
        fixture: async () =>
          (await placeTestOrder(t.db, { sku: (await createProduct(t.db, { stock: 5 })).sku, quantity: 1 }))
            .id,
      },
    ),

  'routes/admin/settings.tsx': () =>
    fuzzEndpoint(
      'POST /admin/configuraciones',
      t.database,
      fuzzedForm(
        { ...settingsForm, alt: 'Banner', link: '/categoria/x', active: 'on' },
        {
          intent: ['guardar', 'banner-crear', 'banner-editar', 'banner-mover', 'banner-eliminar'],
          id: [randomUUID(), '1', '-1'],
          to: ['0', '1', '-1', '1e308', 'arriba'],
          desktop: ['no-es-un-archivo'],
        },
      ),
      (form) => asAdmin(settings.action, '/admin/configuraciones', form),
    ),

  'routes/admin/messages.tsx': () =>
    fuzzEndpoint(
      'POST /admin/mensajes',
      t.database,
      fuzzedForm(messagesForm, {
        intent: ['guardar', 'probar', 'borrar'],
        notifyNumbers: ['3001234567', '573001234567, 3109876543', '6012345678', '300', '1;2;3;4;5;6'],
        newOrderTemplate: ['nuevo_pedido', 'Nuevo Pedido', ''],
        newOrderLanguage: ['es', 'es_CO', 'español'],
        shippedOn: ['on', '', 'true'],
        loaded: ['{}', 'no-es-json', '[]'],
      }),
      (form) => asAdmin(messages.action, '/admin/mensajes', form),
    ),

  'routes/admin/seo.tsx': () =>
    fuzzEndpoint(
      'POST /admin/seo',
      t.database,
      fuzzedForm(
        {
          seoSitemapProducts: 'on',
          seoSitemapCategories: 'on',
          seoRobotsExtra: 'User-agent: GPTBot\nDisallow: /',
          seoGoogleVerification: 'abcDEF123_-xyz7890',
        },
        {
          seoRobotsExtra: [
            '',
            'Disallow: sin-barra',
            'Sitemap: ftp://x',
            '# nota\r\nAllow: /*.webp$',
            'Noindex: /',
          ],
          seoGoogleVerification: [
            '',
            '<meta name="google-site-verification" content="abcDEF123_-xyz7890" />',
            '<meta name="otro" content="abcDEF123_-xyz7890">',
            '"><script>alert(1)</script>',
          ],
          seoSitemapProducts: ['on', '', 'true'],
        },
      ),
      (form) => asAdmin(seoSettings.action, '/admin/seo', form),
    ),

  'routes/admin/sales/payments.tsx': () =>
    fuzzEndpoint(
      'POST /admin/ventas/pagos',
      t.database,
      fuzzedForm(
        { intent: 'reembolsar', provider: 'mercadopago', paymentId: REAL },
        { provider: ['mercadopago', 'wompi', 'transferencia'], paymentId: ['no-existe', 'pagado-1'] },
      ),
      (form, flagged) =>
        asAdmin(salesPayments.action, '/admin/ventas/pagos', {
          ...form,
          // Starting a refund is the one success here: a payment of its own each time.
          fields: form.fields.map(([name, value]) => [
            name,
            name === 'paymentId' && value === REAL ? flagged : value,
          ]),
        }),
      { fixture: paidTwice },
    ),
  'routes/admin/team.tsx': () =>
    fuzzEndpoint(
      'POST /admin/usuarios',
      t.database,
      fuzzedForm(
        { intent: 'invitar', email: REAL, role: 'sales' },
        {
          intent: ['invitar', 'cambiar-rol', 'quitar'],
          email: [ADMIN_EMAIL, 'NUEVA@Gmail.com', 'sin-arroba', 'a@b'],
          role: ['owner', 'sales', 'warehouse', 'jefe'],
        },
      ),
      (form, member) =>
        asAdmin(team.action, '/admin/usuarios', {
          ...form,
          fields: form.fields.map(([name, value]) => [
            name,
            name === 'email' && value === REAL ? member : value,
          ]),
        }),
      { fixture: teamMember },
    ),
  'routes/admin/security.tsx': () =>
    fuzzEndpoint(
      'POST /admin/seguridad',
      t.database,
      fuzzedForm(
        { intent: 'cerrar-sesion', id: REAL, email: ADMIN_EMAIL },
        {
          intent: ['cerrar-sesion', 'cerrar-todas'],
          id: ['no-existe', ''],
          email: [ADMIN_EMAIL, 'x@y.co', 'nada'],
        },
      ),
      (form, sessionId) =>
        asAdmin(security.action, '/admin/seguridad', {
          ...form,
          fields: form.fields.map(([name, value]) => [
            name,
            name === 'id' && value === REAL ? sessionId : value,
          ]),
        }),
      // Another member's session: the fuzzing admin's own is never the one closed.
      { fixture: async () => (await signedInAs(t.db, config, await teamMember())).session.id },
    ),
}

let teamMembers = 0
/** A member of the team (sales), joined, to change or remove. */
async function teamMember() {
  const email = `fuzz-${++teamMembers}@gmail.com`
  await addTeamMember(t.db, email, 'sales')
  return email
}

let paidTwiceCount = 0
/** An order paid twice at Mercado Pago: its second payment (the one returned) is flagged. */
async function paidTwice() {
  const product = await createProduct(t.db, { stock: 5 })
  const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
  const n = ++paidTwiceCount
  await t.db
    .update(orders)
    .set({ status: 'pagado', paymentId: `pagado-${n}` })
    .where(eq(orders.id, order.id))
  const paid = { provider: 'mercadopago' as const, orderId: order.id, status: 'approved', amount: 1_000_00 }
  await recordLedgerPayment(t.db, { ...paid, providerPaymentId: `pagado-${n}` })
  await recordLedgerPayment(t.db, { ...paid, providerPaymentId: `otra-vez-${n}` })
  return `otra-vez-${n}`
}

test.each(ADMIN_FUZZ_TARGETS)(
  '%s survives hostile input from a signed-in admin',
  async (file) => {
    await fuzzers[file]()
  },
  180_000,
)

const GUARDED: { file: (typeof ADMIN_FUZZ_TARGETS)[number]; path: string; handler: Handler }[] = [
  { file: 'routes/admin/dashboard.tsx', path: '/admin', handler: dashboard.action },
  {
    file: 'routes/admin/products/create.tsx',
    path: '/admin/productos/crear',
    handler: createProductRoute.action,
  },
  { file: 'routes/admin/products/edit.tsx', path: '/admin/productos/editar/x', handler: editProduct.action },
  { file: 'routes/admin/products/inventory.tsx', path: '/admin/productos', handler: inventory.action },
  { file: 'routes/admin/products/save.ts', path: '/admin/productos/guardar', handler: saveProduct.action },
  { file: 'routes/admin/stock/entry.tsx', path: '/admin/productos/entrada', handler: stockEntry.action },
  { file: 'routes/admin/stock/exit.tsx', path: '/admin/productos/salida', handler: stockExit.action },
  { file: 'routes/admin/categories/form.tsx', path: '/admin/categorias/crear', handler: categoryForm.action },
  { file: 'routes/admin/categories/list.tsx', path: '/admin/categorias', handler: categoryList.action },
  {
    file: 'routes/admin/promotions/form.tsx',
    path: '/admin/descuentos/nueva',
    handler: promotionForm.action,
  },
  { file: 'routes/admin/promotions/list.tsx', path: '/admin/descuentos', handler: promotionList.action },
  { file: 'routes/admin/channels.tsx', path: '/admin/canales', handler: channels.action },
  { file: 'routes/admin/orders/detail.tsx', path: '/admin/pedidos/detalle/x', handler: orderDetail.action },
  { file: 'routes/admin/settings.tsx', path: '/admin/configuraciones', handler: settings.action },
  { file: 'routes/admin/messages.tsx', path: '/admin/mensajes', handler: messages.action },
  { file: 'routes/admin/seo.tsx', path: '/admin/seo', handler: seoSettings.action },
  { file: 'routes/admin/sales/payments.tsx', path: '/admin/ventas/pagos', handler: salesPayments.action },
  { file: 'routes/admin/team.tsx', path: '/admin/usuarios', handler: team.action },
  { file: 'routes/admin/security.tsx', path: '/admin/seguridad', handler: security.action },
  { file: 'routes/admin/logout.ts', path: '/logout', handler: logout.action },
]

describe('without a session or its token, the guard answers every hostile post cleanly', () => {
  const who = fc.constantFrom('anonymous', 'no-token', 'wrong-token', 'other-origin', 'forged-cookie')
  test.each(GUARDED)('$file', async ({ path, handler }) => {
    await fuzzEndpoint(
      `POST ${path} (sin sesión o sin token)`,
      t.database,
      fc.record({ form: fuzzedForm({ name: 'x' }, { [CSRF_FIELD]: ['token-falso'] }), who }),
      ({ form, who }) => {
        const { body, headers: bodyHeaders } = formBody(form.fields, form.how, form.junk)
        const headers: Record<string, string> = { ...bodyHeaders, Origin: BASE }
        if (who === 'no-token' || who === 'wrong-token' || who === 'other-origin')
          headers.Cookie = admin.cookie
        if (who === 'wrong-token') headers[CSRF_HEADER] = 'token-falso'
        if (who === 'other-origin') {
          headers.Origin = 'https://evil.example'
          headers[CSRF_HEADER] = admin.csrfToken
        }
        if (who === 'forged-cookie') headers.Cookie = `${admin.cookie.split('=')[0]}=${'A'.repeat(64)}`
        const request = new Request(`${BASE}${path}`, { method: 'POST', body, headers })
        return answerOf(() =>
          asAdminRoute(handler, {
            request,
            params: { sku, id: randomUUID() },
            context: freshContext(services),
          }),
        )
      },
      { numRuns: Math.max(10, Math.round(FUZZ_RUNS / 4)) },
    )
  })
})
