import { asc, count, eq, inArray } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { media } from '#app/modules/catalog/schema.ts'
import { placeOrder, type CheckoutContext } from '#app/modules/checkout/checkout.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { ANA, LOOSE_HOLD_LIMITS } from '#tests/orders.ts'
import { createProduct } from '#tests/factories.ts'
import { clearJobs, setupJobQueue } from '#tests/jobs.ts'
import { memoryStorage, pngUpload, WEBM_BYTES } from '#tests/media.ts'
import {
  createBanner,
  deleteBanner,
  listAdminBanners,
  listBanners,
  moveBanner,
  updateBanner,
} from './banners.server.ts'
import { banners, settingChanges, settings } from './schema.ts'
import {
  adminSessionLimits,
  getStoreInfo,
  holdLimitDefaults,
  readInvoiceSettings,
  listSettingChanges,
  readHoldLimits,
  readSessionLimits,
  readShippingRules,
  readStoreSettings,
  saveStoreSettings,
  SESSION_LIMITS_MAX_AGE_MS,
  settingDefaults,
  SettingsRefused,
} from './settings.server.ts'
import {
  BANNER_MESSAGES,
  DEFAULT_WHATSAPP_TEXT,
  loadedSettings,
  normalizeBannerLink,
  SETTINGS_MESSAGES,
  settingsAsFormValues,
  type SettingsFormValues,
} from './validators.ts'

const t = setupTestDatabase()
const jobs = setupJobQueue(() => t.database)

const env = parseEnv({
  SHIPPING_COST: '9000',
  FREE_SHIPPING_THRESHOLD: '150000',
  WHATSAPP_CONTACT_NUMBER: '573005556677',
  SELLER_LEGAL_NAME: 'Joyas del Entorno S.A.S.',
  SELLER_NIT: '900.123.456-7',
  SELLER_ADDRESS: 'Calle 1 # 2-3, Cali',
  SELLER_EMAIL: 'entorno@joyas.example',
  DELIVERY_TIME: 'Entrega en 3 días hábiles.',
  COD_MAX_OPEN_UNITS: '15',
})
const defaults = settingDefaults(env)
const ADMIN = 'duena@vitrina.test'

/** The form as the page shows it now, with some fields typed over. */
async function formWith(changes: Partial<SettingsFormValues>): Promise<SettingsFormValues> {
  return { ...settingsAsFormValues(await readStoreSettings(t.db, defaults)), ...changes }
}

/** What the form was loaded with: the settings as they are now. */
const loadedNow = () => readStoreSettings(t.db, defaults)

async function rowCounts() {
  const [saved] = await t.db.select({ n: count() }).from(settings)
  const [audited] = await t.db.select({ n: count() }).from(settingChanges)
  return { saved: saved!.n, audited: audited!.n }
}

beforeEach(async () => {
  await t.db.delete(settings)
  await t.db.delete(settingChanges)
})

describe('settings', () => {
  test('never saved: every value is the environment’s (the WhatsApp text its default)', async () => {
    expect(await readStoreSettings(t.db, defaults)).toEqual({
      shippingCost: 9_000_00,
      freeShippingThreshold: 150_000_00,
      whatsappNumber: '573005556677',
      whatsappText: DEFAULT_WHATSAPP_TEXT,
      sellerLegalName: 'Joyas del Entorno S.A.S.',
      sellerNit: '900.123.456-7',
      sellerAddress: 'Calle 1 # 2-3, Cali',
      sellerEmail: 'entorno@joyas.example',
      deliveryTime: 'Entrega en 3 días hábiles.',
      maxOpenOrders: 2,
      maxOpenUnits: 15,
      maxOpenOrdersPerAddress: 6,
      maxOpenUnitsPerAddress: 30,
      adminIdleMinutes: 720,
      adminSessionHours: 168,
      invoiceTrigger: 'auto',
      defaultVat: '19',
      carrierQuotes: 'flat',
      carrierOriginStreet: '',
      carrierOriginMunicipality: '',
      carrierOriginPhone: '',
      parcelWeightGrams: 300,
      parcelLengthCm: 20,
      parcelWidthCm: 15,
      parcelHeightCm: 8,
      completeOnDelivery: 'no',
      // "Pagos": online providers on once configured, transfers off until a key or account is saved.
      paymentMercadoPago: 'yes',
      paymentWompi: 'yes',
      paymentTransfer: 'no',
      transferBrebKey: '',
      transferAccount: '',
      transferDeadlineHours: 24,
    })
    const info = await getStoreInfo(t.db, env)
    expect(info.shipping).toEqual({ shippingCost: 9_000_00, freeShippingThreshold: 150_000_00 })
    expect(info.seller.phone).toBe('573005556677')
  })

  test('hold limits: whole numbers from 1 to 100.000.000, saved like any setting and read by checkout', async () => {
    const refused = await saveStoreSettings(
      t.db,
      defaults,
      await formWith({ maxOpenUnits: '0', maxOpenOrders: 'dos', maxOpenUnitsPerAddress: '100000001' }),
      defaults,
      ADMIN,
    ).catch((thrown: unknown) => thrown)
    expect(refused).toBeInstanceOf(SettingsRefused)
    expect((refused as SettingsRefused).errors).toEqual({
      maxOpenOrders: 'Pedidos sin pagar por teléfono: escribe un número entero entre 1 y 100.000.000.',
      maxOpenUnits: 'Unidades sin pagar por teléfono: escribe un número entero entre 1 y 100.000.000.',
      maxOpenUnitsPerAddress:
        'Unidades sin pagar por conexión: escribe un número entero entre 1 y 100.000.000.',
    })
    const loaded = await readStoreSettings(t.db, defaults)
    await saveStoreSettings(t.db, defaults, await formWith({ maxOpenUnits: ' 25 ' }), loaded, ADMIN)
    expect(await readHoldLimits(t.db, holdLimitDefaults(env))).toEqual({
      maxOpenOrders: 2,
      maxOpenUnits: 25,
      maxOpenOrdersPerAddress: 6,
      maxOpenUnitsPerAddress: 30,
    })
  })

  test('session limits (issue 23): idle 15 min to 7 days, in all 1 h to 30 days, idle no longer; Spanish messages, nothing saved', async () => {
    const refusedWith = async (changes: Partial<SettingsFormValues>) => {
      const thrown = await saveStoreSettings(
        t.db,
        defaults,
        await formWith(changes),
        await loadedNow(),
        ADMIN,
      ).catch((error: unknown) => error)
      expect(thrown, JSON.stringify(changes)).toBeInstanceOf(SettingsRefused)
      return (thrown as SettingsRefused).errors
    }
    const idle =
      'Cierre por inactividad (minutos): escribe un número entero de minutos entre 15 y 10.080 (7 días).'
    const absolute =
      'Duración máxima de la sesión (horas): escribe un número entero de horas entre 1 y 720 (30 días).'
    for (const typed of ['14', '10081', '1.5', '12 horas', '', '-30']) {
      expect(await refusedWith({ adminIdleMinutes: typed })).toEqual({ adminIdleMinutes: idle })
    }
    for (const typed of ['0', '721', '2,5', 'siete días']) {
      expect(await refusedWith({ adminSessionHours: typed })).toEqual({ adminSessionHours: absolute })
    }
    expect(await refusedWith({ adminIdleMinutes: '180', adminSessionHours: '2' })).toEqual({
      adminIdleMinutes:
        'El cierre por inactividad no puede ser más largo que la duración máxima de la sesión.',
    })
    expect(await rowCounts()).toEqual({ saved: 0, audited: 0 })

    // The bounds themselves are taken, "10.080" as the hint writes it.
    await saveStoreSettings(
      t.db,
      defaults,
      await formWith({ adminIdleMinutes: '10.080', adminSessionHours: '720' }),
      await loadedNow(),
      ADMIN,
    )
    expect(await readSessionLimits(t.db)).toEqual({ adminIdleMinutes: 10_080, adminSessionHours: 720 })
    await saveStoreSettings(
      t.db,
      defaults,
      await formWith({ adminIdleMinutes: '15', adminSessionHours: '1' }),
      await loadedNow(),
      ADMIN,
    )
    expect(await readSessionLimits(t.db)).toEqual({ adminIdleMinutes: 15, adminSessionHours: 1 })
    expect((await listSettingChanges(t.db)).map((change) => change.key).sort()).toEqual([
      'adminIdleMinutes',
      'adminIdleMinutes',
      'adminSessionHours',
      'adminSessionHours',
    ])
  })

  test('every admin request reads the session limits from a per-process copy; a save here renews it at once', async () => {
    const base = Date.now()
    expect(await adminSessionLimits(t.db, base)).toEqual({
      idleMs: 12 * 3_600_000,
      absoluteMs: 7 * 86_400_000,
    })
    // Another process saved (a row written straight): this one follows within the copy's age.
    await t.db.insert(settings).values({ key: 'adminIdleMinutes', value: 60 })
    expect((await adminSessionLimits(t.db, base + SESSION_LIMITS_MAX_AGE_MS - 1)).idleMs).toBe(12 * 3_600_000)
    expect((await adminSessionLimits(t.db, base + SESSION_LIMITS_MAX_AGE_MS)).idleMs).toBe(3_600_000)
    // A save on this process applies to its next request.
    await saveStoreSettings(
      t.db,
      defaults,
      await formWith({ adminIdleMinutes: '45' }),
      await loadedNow(),
      ADMIN,
    )
    expect((await adminSessionLimits(t.db, base + SESSION_LIMITS_MAX_AGE_MS + 1)).idleMs).toBe(45 * 60_000)
    // A value out of bounds (written by hand) counts as never saved.
    await t.db.update(settings).set({ value: 5 }).where(eq(settings.key, 'adminIdleMinutes'))
    expect(await readSessionLimits(t.db)).toEqual({ adminIdleMinutes: 720, adminSessionHours: 168 })
  })

  test('a save writes only what changed, each with an audit row naming who; the rest keep following the environment', async () => {
    const result = await saveStoreSettings(
      t.db,
      defaults,
      await formWith({
        shippingCost: '$ 12.500',
        whatsappNumber: '+57 311 222 3344',
        whatsappText: ' Hola ',
      }),
      await loadedNow(),
      ADMIN,
    )
    expect(result.changed).toEqual(['shippingCost', 'whatsappNumber', 'whatsappText'])
    const saved = await readStoreSettings(t.db, defaults)
    expect(saved.shippingCost).toBe(12_500_00)
    expect(saved.whatsappNumber).toBe('573112223344')
    expect(saved.whatsappText).toBe('Hola')

    const changes = await listSettingChanges(t.db)
    expect(
      changes.map(({ key, oldValue, newValue, changedBy }) => ({ key, oldValue, newValue, changedBy })),
    ).toEqual(
      expect.arrayContaining([
        { key: 'shippingCost', oldValue: 9_000_00, newValue: 12_500_00, changedBy: ADMIN },
        { key: 'whatsappNumber', oldValue: '573005556677', newValue: '573112223344', changedBy: ADMIN },
        { key: 'whatsappText', oldValue: DEFAULT_WHATSAPP_TEXT, newValue: 'Hola', changedBy: ADMIN },
      ]),
    )
    expect(changes).toHaveLength(3)
    expect(Date.now() - Date.parse(changes[0]!.changedAt)).toBeLessThan(60_000)

    // A key never saved follows a new environment value (first-run default); a saved one does not.
    const later = settingDefaults(parseEnv({ SHIPPING_COST: '1', FREE_SHIPPING_THRESHOLD: '50000' }))
    const now = await readStoreSettings(t.db, later)
    expect(now.freeShippingThreshold).toBe(50_000_00)
    expect(now.shippingCost).toBe(12_500_00)

    // Saving the same values again changes nothing and records nothing.
    expect(
      (await saveStoreSettings(t.db, defaults, await formWith({}), await loadedNow(), ADMIN)).changed,
    ).toEqual([])
    expect((await rowCounts()).audited).toBe(3)
  })

  test('"Últimos cambios" leaves out other pages\' settings kept here ("messages.*" keys)', async () => {
    await saveStoreSettings(
      t.db,
      defaults,
      await formWith({ shippingCost: '12500' }),
      await loadedNow(),
      ADMIN,
    )
    await t.db.insert(settingChanges).values({
      key: 'messages.notifyNumbers',
      oldValue: [],
      newValue: ['573001234567'],
      changedBy: ADMIN,
    })
    expect((await listSettingChanges(t.db)).map((change) => change.key)).toEqual(['shippingCost'])
  })

  test('two saves from the same loaded page: each writes only its own field; the same field edited twice is refused', async () => {
    const loaded = await loadedNow()
    const page = settingsAsFormValues(loaded)
    // Ana changes the shipping cost, Beto (same page, loaded before Ana saved) the WhatsApp text.
    expect(
      (await saveStoreSettings(t.db, defaults, { ...page, shippingCost: '7000' }, loaded, 'ana@x.co'))
        .changed,
    ).toEqual(['shippingCost'])
    expect(
      (await saveStoreSettings(t.db, defaults, { ...page, whatsappText: 'Hola Beto' }, loaded, 'beto@x.co'))
        .changed,
    ).toEqual(['whatsappText'])
    const both = await readStoreSettings(t.db, defaults)
    // Beto's form still showed 9.000: Ana's 7.000 is not undone.
    expect(both).toMatchObject({ shippingCost: 7_000_00, whatsappText: 'Hola Beto' })

    // Carla, from that same old page, changes the shipping cost too: refused, nothing written.
    const refusal = await saveStoreSettings(
      t.db,
      defaults,
      { ...page, shippingCost: '5000', sellerNit: '901.234.567-8' },
      loaded,
      'carla@x.co',
    ).catch((error: unknown) => error)
    expect((refusal as Error).message).toBe(SETTINGS_MESSAGES.conflict(['Costo de envío']))
    expect((refusal as Error).message).toMatch(/^Otro administrador cambió .* recarga la página/)
    expect(await readStoreSettings(t.db, defaults)).toEqual(both)
    expect((await rowCounts()).audited).toBe(2)

    // Without the loaded values (an old tab, a hand-made post) nothing is saved either.
    await expect(saveStoreSettings(t.db, defaults, page, null, ADMIN)).rejects.toThrow(
      SETTINGS_MESSAGES.stale,
    )
    expect(loadedSettings(JSON.stringify(loaded))).toEqual(loaded)
    expect(loadedSettings(JSON.stringify({ ...loaded, shippingCost: 'x' }))).toBeNull()
    expect(loadedSettings('{no')).toBeNull()
  })

  test('electronic invoices: automatic and 19 % until saved; a change is saved and audited like any setting', async () => {
    expect(await readInvoiceSettings(t.db)).toEqual({ trigger: 'auto', defaultVat: '19' })

    const result = await saveStoreSettings(
      t.db,
      defaults,
      await formWith({ invoiceTrigger: 'manual', defaultVat: 'excluded' }),
      await loadedNow(),
      ADMIN,
    )
    expect(result.changed).toEqual(['invoiceTrigger', 'defaultVat'])
    expect(await readInvoiceSettings(t.db)).toEqual({ trigger: 'manual', defaultVat: 'excluded' })
    expect(await readStoreSettings(t.db, defaults)).toMatchObject({
      invoiceTrigger: 'manual',
      defaultVat: 'excluded',
    })
    const changes = await listSettingChanges(t.db)
    expect(
      changes.map(({ key, oldValue, newValue, changedBy }) => ({ key, oldValue, newValue, changedBy })),
    ).toEqual(
      expect.arrayContaining([
        { key: 'invoiceTrigger', oldValue: 'auto', newValue: 'manual', changedBy: ADMIN },
        { key: 'defaultVat', oldValue: '19', newValue: 'excluded', changedBy: ADMIN },
      ]),
    )
    expect(changes).toHaveLength(2)
    expect(await rowCounts()).toEqual({ saved: 2, audited: 2 })

    // Read in a transaction too (the invoice job reads it beside the order).
    await t.db.transaction(async (tx) =>
      expect(await readInvoiceSettings(tx)).toEqual({ trigger: 'manual', defaultVat: 'excluded' }),
    )

    // Back to the defaults: saved (a key once saved keeps its value), audited again.
    await saveStoreSettings(
      t.db,
      defaults,
      await formWith({ invoiceTrigger: 'auto', defaultVat: '5' }),
      await loadedNow(),
      ADMIN,
    )
    expect(await readInvoiceSettings(t.db)).toEqual({ trigger: 'auto', defaultVat: '5' })
    expect((await rowCounts()).audited).toBe(4)

    // A stored value outside the choices (written by hand) counts as never saved.
    await t.db.update(settings).set({ value: 'siempre' }).where(eq(settings.key, 'invoiceTrigger'))
    await t.db.update(settings).set({ value: 16 }).where(eq(settings.key, 'defaultVat'))
    expect(await readInvoiceSettings(t.db)).toEqual({ trigger: 'auto', defaultVat: '19' })

    // A form loaded before these settings existed is stale: nothing saved.
    const { invoiceTrigger: _trigger, defaultVat: _vat, ...older } = await loadedNow()
    expect(loadedSettings(JSON.stringify(older))).toBeNull()
    expect(loadedSettings(JSON.stringify({ ...(await loadedNow()), defaultVat: '16' }))).toBeNull()
  })

  test.each([
    [{ shippingCost: '-1' }, 'shippingCost', SETTINGS_MESSAGES.moneyWhole('Costo de envío')],
    [{ shippingCost: '8000,50' }, 'shippingCost', SETTINGS_MESSAGES.moneyWhole('Costo de envío')],
    [{ shippingCost: '' }, 'shippingCost', SETTINGS_MESSAGES.moneyRequired('Costo de envío')],
    [
      { freeShippingThreshold: 'cien mil' },
      'freeShippingThreshold',
      SETTINGS_MESSAGES.moneyWhole('Envío gratis desde'),
    ],
    [
      { freeShippingThreshold: '999999999' },
      'freeShippingThreshold',
      SETTINGS_MESSAGES.moneyTooLarge('Envío gratis desde'),
    ],
    [{ whatsappNumber: '6041234567' }, 'whatsappNumber', SETTINGS_MESSAGES.phone],
    [{ whatsappNumber: '57300123' }, 'whatsappNumber', SETTINGS_MESSAGES.phone],
    [{ whatsappText: '   ' }, 'whatsappText', SETTINGS_MESSAGES.whatsappText],
    [{ sellerLegalName: '' }, 'sellerLegalName', SETTINGS_MESSAGES.legalName],
    [{ sellerNit: 'ABC' }, 'sellerNit', SETTINGS_MESSAGES.nit],
    [{ sellerAddress: ' ' }, 'sellerAddress', SETTINGS_MESSAGES.address],
    [{ sellerEmail: 'no-es-correo' }, 'sellerEmail', SETTINGS_MESSAGES.email],
    [{ deliveryTime: '' }, 'deliveryTime', SETTINGS_MESSAGES.deliveryTime],
    [{ invoiceTrigger: '' }, 'invoiceTrigger', 'Elige cuándo emitir la factura electrónica.'],
    [{ invoiceTrigger: 'siempre' }, 'invoiceTrigger', SETTINGS_MESSAGES.invoiceTrigger],
    [
      { defaultVat: '16' },
      'defaultVat',
      'Elige el IVA por defecto de los productos entre las opciones de la lista.',
    ],
    [{ defaultVat: '' }, 'defaultVat', SETTINGS_MESSAGES.defaultVat],
  ] as const)('refuses %o with its Spanish message and writes nothing', async (typed, key, message) => {
    // A valid change beside the bad one is not written either.
    const form = await formWith({ shippingCost: '7000', ...typed })
    const refusal = await saveStoreSettings(t.db, defaults, form, await loadedNow(), ADMIN).catch(
      (error: unknown) => error,
    )
    expect(refusal).toBeInstanceOf(SettingsRefused)
    expect((refusal as SettingsRefused).errors[key]).toBe(message)
    expect((refusal as SettingsRefused).message).toBe(SETTINGS_MESSAGES.invalid)
    expect(await rowCounts()).toEqual({ saved: 0, audited: 0 })
  })
})

describe('checkout reads the saved shipping inside the order’s transaction', () => {
  const ctx = (): CheckoutContext => ({
    db: t.db,
    jobs: jobs.queue,
    // What the services were started with: only a first-run default.
    shipping: { shippingCost: defaults.shippingCost, freeShippingThreshold: defaults.freeShippingThreshold },
    notifyNumbers: [],
    onlinePayments: { mercadopago: false, wompi: false },
    holdLimits: LOOSE_HOLD_LIMITS,
  })
  const customer = ANA

  test('a changed shipping cost and threshold change the next order’s total, no restart', async () => {
    await clearJobs(t.database)
    const product = await createProduct(t.db, { name: 'Collar Envío', pesos: 60000, stock: 10 })
    const order = async () => {
      const { order } = await placeOrder(ctx(), { lines: [{ sku: product.sku, quantity: 1 }], customer })
      const [row] = await t.db.select().from(orders).where(eq(orders.id, order.id))
      return { shipping: row!.shippingCost, total: row!.total }
    }
    expect(await order()).toEqual({ shipping: 9_000_00, total: 69_000_00 })

    await saveStoreSettings(
      t.db,
      defaults,
      await formWith({ shippingCost: '4500' }),
      await loadedNow(),
      ADMIN,
    )
    expect(await order()).toEqual({ shipping: 4_500_00, total: 64_500_00 })

    // A threshold under the subtotal: free.
    await saveStoreSettings(
      t.db,
      defaults,
      await formWith({ freeShippingThreshold: '50000' }),
      await loadedNow(),
      ADMIN,
    )
    expect(await order()).toEqual({ shipping: 0, total: 60_000_00 })
  })

  test('readShippingRules in a transaction sees the value committed before it', async () => {
    await saveStoreSettings(
      t.db,
      defaults,
      await formWith({ shippingCost: '3000' }),
      await loadedNow(),
      ADMIN,
    )
    const rules = await t.db.transaction((tx) => readShippingRules(tx, ctx().shipping))
    expect(rules).toEqual({ shippingCost: 3_000_00, freeShippingThreshold: 150_000_00 })
  })
})

describe('banners', () => {
  const reads = () => ({ db: t.db, publicBase: '/media' })

  beforeEach(async () => {
    await t.db.delete(banners)
  })

  test('add, hide, reorder and delete, each audited; the home shows the active ones in order', async () => {
    const storage = memoryStorage()
    const first = await createBanner(
      t.db,
      storage,
      {
        alt: 'Collares en oferta',
        link: '/categoria/Categoria_1',
        active: true,
        desktop: await pngUpload('ancho.png', '#8e44ad', 160, 60),
        mobile: await pngUpload('celular.png', '#2980b9', 70, 70),
      },
      ADMIN,
    )
    const second = await createBanner(
      t.db,
      storage,
      {
        alt: 'Video de la colección',
        link: 'https://tienda.example/novedades',
        active: true,
        desktop: { name: 'clip.webm', bytes: WEBM_BYTES },
        mobile: null,
      },
      ADMIN,
    )
    let home = await listBanners(reads())
    expect(home.map((banner) => banner.alt)).toEqual(['Collares en oferta', 'Video de la colección'])
    expect(home[0]).toMatchObject({ kind: 'image', link: '/categoria/Categoria_1' })
    expect(home[0]!.kind === 'image' && home[0]!.mobile).toBeTruthy()
    expect(home[1]).toMatchObject({ kind: 'video', link: 'https://tienda.example/novedades' })

    await moveBanner(t.db, second.id, 'arriba', ADMIN)
    expect((await listBanners(reads())).map((banner) => banner.id)).toEqual([second.id, first.id])
    await moveBanner(t.db, second.id, 5, ADMIN)
    expect((await listBanners(reads())).map((banner) => banner.id)).toEqual([first.id, second.id])

    await updateBanner(t.db, first.id, { alt: 'Collares', link: '', active: false }, ADMIN)
    home = await listBanners(reads())
    expect(home.map((banner) => banner.id)).toEqual([second.id])
    const admin = await listAdminBanners(reads())
    expect(admin.map(({ id, active, position, link }) => ({ id, active, position, link }))).toEqual([
      { id: first.id, active: false, position: 1, link: null },
      { id: second.id, active: true, position: 2, link: 'https://tienda.example/novedades' },
    ])

    const files = storage.files.size
    expect(files).toBeGreaterThan(1)
    await deleteBanner(t.db, storage, first.id, ADMIN)
    expect((await listAdminBanners(reads())).map((banner) => banner.id)).toEqual([second.id])
    expect(storage.files.size).toBeLessThan(files)
    const [orphans] = await t.db.select({ n: count() }).from(media).where(eq(media.alt, 'Collares en oferta'))
    expect(orphans!.n).toBe(0)

    const audit = await t.db.select().from(settingChanges).orderBy(asc(settingChanges.id))
    expect(audit.map((row) => row.key)).toEqual(['banner', 'banner', 'banner', 'banner', 'banner', 'banner'])
    expect(audit.every((row) => row.changedBy === ADMIN)).toBe(true)
    expect(audit[0]).toMatchObject({ oldValue: null, newValue: { alt: 'Collares en oferta', position: 1 } })
    expect(audit.at(-1)).toMatchObject({ oldValue: { alt: 'Collares', active: false }, newValue: null })
  })

  test.each([
    [{ alt: '  ' }, BANNER_MESSAGES.altRequired],
    [{ link: 'http://inseguro.example' }, BANNER_MESSAGES.link],
    [{ link: '//otro.example/x' }, BANNER_MESSAGES.link],
    [{ link: 'javascript:alert(1)' }, BANNER_MESSAGES.link],
    [{ desktop: null }, BANNER_MESSAGES.imageRequired],
  ])('refuses %o and stores nothing', async (typed, message) => {
    const storage = memoryStorage()
    const input = {
      alt: 'Banner',
      link: '',
      active: true,
      desktop: await pngUpload('ancho.png'),
      mobile: null,
      ...typed,
    }
    await expect(createBanner(t.db, storage, input, ADMIN)).rejects.toThrow(message)
    expect(storage.files.size).toBe(0)
    const [row] = await t.db.select({ n: count() }).from(banners)
    expect(row!.n).toBe(0)
    expect((await rowCounts()).audited).toBe(0)
  })

  test('a video for phones, or a phone image beside a video, is refused', async () => {
    const storage = memoryStorage()
    const base = { alt: 'Banner', link: '', active: true }
    await expect(
      createBanner(
        t.db,
        storage,
        { ...base, desktop: await pngUpload(), mobile: { name: 'clip.webm', bytes: WEBM_BYTES } },
        ADMIN,
      ),
    ).rejects.toThrow(BANNER_MESSAGES.mobileNotImage)
    await expect(
      createBanner(
        t.db,
        storage,
        { ...base, desktop: { name: 'clip.webm', bytes: WEBM_BYTES }, mobile: await pngUpload() },
        ADMIN,
      ),
    ).rejects.toThrow(BANNER_MESSAGES.mobileWithVideo)
    expect(storage.files.size).toBe(0)
  })

  test('a banner whose file is gone is listed as missing, counted by moves, and can be deleted; shared media stay, the rest go', async () => {
    const storage = memoryStorage()
    const base = { link: '', active: true, mobile: null }
    const gone = await createBanner(
      t.db,
      storage,
      { ...base, alt: 'Sin archivo', desktop: await pngUpload() },
      ADMIN,
    )
    const two = await createBanner(
      t.db,
      storage,
      {
        ...base,
        alt: 'Dos imágenes',
        desktop: await pngUpload('ancho.png', '#8e44ad', 160, 60),
        mobile: await pngUpload('celular.png', '#2980b9', 70, 70),
      },
      ADMIN,
    )
    const [goneRow] = await t.db.select().from(banners).where(eq(banners.id, gone.id))
    await t.db.delete(media).where(eq(media.id, goneRow!.desktopMediaId))

    const listed = await listAdminBanners(reads())
    expect(listed.map(({ id, kind, position }) => ({ id, kind, position }))).toEqual([
      { id: gone.id, kind: 'missing', position: 1 },
      { id: two.id, kind: 'image', position: 2 },
    ])
    expect((await listBanners(reads())).map((banner) => banner.id)).toEqual([two.id])
    // "Mover a 1" puts the visible banner first: positions are counted over every row.
    await moveBanner(t.db, two.id, 1, ADMIN)
    expect((await listAdminBanners(reads())).map((banner) => banner.id)).toEqual([two.id, gone.id])
    await deleteBanner(t.db, storage, gone.id, ADMIN)
    expect((await listAdminBanners(reads())).map((banner) => banner.id)).toEqual([two.id])

    // Another banner shows the same wide image: deleting this one keeps it, and drops its phone image.
    const [twoRow] = await t.db.select().from(banners).where(eq(banners.id, two.id))
    const [sharer] = await t.db
      .insert(banners)
      .values({ kind: 'image', position: 5, alt: 'Comparte', desktopMediaId: twoRow!.desktopMediaId })
      .returning()
    await deleteBanner(t.db, storage, two.id, ADMIN)
    const left = await t.db
      .select({ id: media.id })
      .from(media)
      .where(inArray(media.id, [twoRow!.desktopMediaId, twoRow!.mobileMediaId!]))
    expect(left).toEqual([{ id: twoRow!.desktopMediaId }])
    expect((await listBanners(reads())).map((banner) => banner.id)).toEqual([sharer!.id])
  })

  test('an unknown banner or a bad position is refused', async () => {
    await expect(updateBanner(t.db, 999_999, { alt: 'x', link: '', active: true }, ADMIN)).rejects.toThrow(
      BANNER_MESSAGES.notFound,
    )
    await expect(moveBanner(t.db, 999_999, null, ADMIN)).rejects.toBeInstanceOf(Refusal)
    await expect(deleteBanner(t.db, memoryStorage(), 999_999, ADMIN)).rejects.toThrow(
      BANNER_MESSAGES.notFound,
    )
  })

  test('links: a shop path or an https address', () => {
    expect(normalizeBannerLink('')).toEqual({ ok: true, link: null })
    expect(normalizeBannerLink(' /buscar?q=aretes ')).toEqual({ ok: true, link: '/buscar?q=aretes' })
    expect(normalizeBannerLink('https://instagram.com/tienda')).toEqual({
      ok: true,
      link: 'https://instagram.com/tienda',
    })
    for (const bad of [
      'ftp://x.example',
      'tienda.example',
      '/\\evil.example',
      'https://',
      'data:text/html,x',
    ]) {
      expect(normalizeBannerLink(bad)).toEqual({ ok: false })
    }
  })
})
