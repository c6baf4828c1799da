import { asc, count, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { rulesForPlace } from '#app/modules/cart/shipping.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { settingChanges, settings } from './schema.ts'
import {
  isShippingZoneCode,
  listSettingChanges,
  listShippingZones,
  readShippingZones,
  removeShippingZone,
  saveShippingZone,
  shippingZoneChoices,
  shippingZonePlace,
  ShippingZoneRefused,
  withReadableChanges,
} from './settings.server.ts'
import {
  checkShippingZoneForm,
  MAX_SHIPPING_ZONES,
  SETTINGS_MESSAGES,
  SHIPPING_ZONE_MESSAGES,
  SHIPPING_ZONES_KEY,
  shippingZoneFormValues,
  type ShippingZoneFormValues,
} from './validators.ts'

/** "Envío por zona": shipping rules per department or municipality, kept as one setting. */

const t = setupTestDatabase()
const ADMIN = 'duena@vitrina.test'
const OTHER = 'socia@vitrina.test'

const zoneForm = (values: Partial<ShippingZoneFormValues>): ShippingZoneFormValues => ({
  code: '',
  cost: '',
  cashOnDelivery: true,
  ...values,
})

async function rowCounts() {
  const [saved] = await t.db.select({ n: count() }).from(settings)
  const [audited] = await t.db.select({ n: count() }).from(settingChanges)
  return { saved: saved!.n, audited: audited!.n }
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )

beforeEach(async () => {
  await t.db.delete(settings)
  await t.db.delete(settingChanges)
})

describe('the zone form', () => {
  const known = (code: string) => ['05', '05001'].includes(code)

  test('a department or municipality code, the cost empty (general cost) or whole pesos as "Costo de envío" takes them', () => {
    expect(checkShippingZoneForm(zoneForm({ code: '05001', cost: '12.000' }), known)).toEqual({
      ok: true,
      zone: { code: '05001', cost: 12_000_00, cashOnDelivery: true },
    })
    expect(checkShippingZoneForm(zoneForm({ code: '05', cost: '  ', cashOnDelivery: false }), known)).toEqual(
      { ok: true, zone: { code: '05', cost: null, cashOnDelivery: false } },
    )
    expect(checkShippingZoneForm(zoneForm({ code: '05', cost: '$ 0' }), known)).toMatchObject({
      ok: true,
      zone: { cost: 0 },
    })
  })

  test('an unknown code and a bad cost are refused field by field, in Spanish', () => {
    for (const code of ['', '99999', '5', '050010', 'antioquia', '05 001']) {
      expect(checkShippingZoneForm(zoneForm({ code, cost: '5000' }), known)).toEqual({
        ok: false,
        errors: { code: SHIPPING_ZONE_MESSAGES.code },
      })
    }
    expect(checkShippingZoneForm(zoneForm({ code: '05', cost: '-500' }), known)).toEqual({
      ok: false,
      errors: { cost: SETTINGS_MESSAGES.moneyWhole('Costo de envío') },
    })
    expect(checkShippingZoneForm(zoneForm({ code: '05', cost: '8000,50' }), known)).toEqual({
      ok: false,
      errors: { cost: SETTINGS_MESSAGES.moneyWhole('Costo de envío') },
    })
    expect(checkShippingZoneForm(zoneForm({ code: 'x', cost: '20.000.001' }), known)).toEqual({
      ok: false,
      errors: { code: SHIPPING_ZONE_MESSAGES.code, cost: SETTINGS_MESSAGES.moneyTooLarge('Costo de envío') },
    })
  })

  test('the posted fields: an unticked box is no cash on delivery', () => {
    const form = new FormData()
    form.set('code', ' 05001 ')
    form.set('cost', '9000')
    expect(shippingZoneFormValues(form)).toEqual({ code: '05001', cost: '9000', cashOnDelivery: false })
    form.set('cashOnDelivery', 'on')
    expect(shippingZoneFormValues(form).cashOnDelivery).toBe(true)
    expect(shippingZoneFormValues(new FormData())).toEqual({ code: '', cost: '', cashOnDelivery: false })
  })

  test('codes and names come from DANE’s list', () => {
    expect(isShippingZoneCode('05')).toBe(true)
    expect(isShippingZoneCode('05001')).toBe(true)
    expect(isShippingZoneCode('11001')).toBe(true)
    expect(isShippingZoneCode('00')).toBe(false)
    expect(isShippingZoneCode('05999')).toBe(false)
    expect(shippingZonePlace('05001')).toBe('Medellín (Antioquia)')
    expect(shippingZonePlace('05')).toBe('Antioquia (todo el departamento)')
    const choices = shippingZoneChoices()
    expect(choices).toHaveLength(33)
    const antioquia = choices.find((department) => department.code === '05')!
    expect(antioquia.name).toBe('Antioquia')
    expect(antioquia.municipalities).toContainEqual({ code: '05001', name: 'Medellín' })
    expect(antioquia.municipalities.every((municipality) => municipality.code.startsWith('05'))).toBe(true)
  })
})

describe('saving and removing zones', () => {
  test('never saved: no zones', async () => {
    expect(await readShippingZones(t.db)).toEqual([])
    expect(await listShippingZones(t.db)).toEqual([])
  })

  test('added zones are one setting, sorted by department then municipality, each change audited with who made it', async () => {
    expect(await saveShippingZone(t.db, zoneForm({ code: '91001', cost: '30000' }), ADMIN)).toEqual({
      changed: true,
    })
    await saveShippingZone(t.db, zoneForm({ code: '05266', cost: '9000', cashOnDelivery: false }), ADMIN)
    await saveShippingZone(t.db, zoneForm({ code: '05', cost: '' }), OTHER)
    await saveShippingZone(t.db, zoneForm({ code: '05001', cost: '0' }), ADMIN)

    // Amazonas before Antioquia; a department's own zone before its municipalities.
    expect(await readShippingZones(t.db)).toEqual([
      { code: '91001', cost: 30_000_00, cashOnDelivery: true },
      { code: '05', cost: null, cashOnDelivery: true },
      { code: '05266', cost: 9_000_00, cashOnDelivery: false },
      { code: '05001', cost: 0, cashOnDelivery: true },
    ])
    expect((await listShippingZones(t.db)).map((zone) => zone.place)).toEqual([
      'Leticia (Amazonas)',
      'Antioquia (todo el departamento)',
      'Envigado (Antioquia)',
      'Medellín (Antioquia)',
    ])
    // Stored in that order too.
    const [row] = await t.db.select().from(settings).where(eq(settings.key, SHIPPING_ZONES_KEY))
    expect((row!.value as { code: string }[]).map((zone) => zone.code)).toEqual([
      '91001',
      '05',
      '05266',
      '05001',
    ])
    expect(await rowCounts()).toEqual({ saved: 1, audited: 4 })
    const audit = await t.db
      .select()
      .from(settingChanges)
      .where(eq(settingChanges.key, SHIPPING_ZONES_KEY))
      .orderBy(asc(settingChanges.id))
    expect(audit.map(({ oldValue, newValue, changedBy }) => ({ oldValue, newValue, changedBy }))).toEqual([
      {
        oldValue: null,
        newValue: { code: '91001', cost: 30_000_00, cashOnDelivery: true },
        changedBy: ADMIN,
      },
      {
        oldValue: null,
        newValue: { code: '05266', cost: 9_000_00, cashOnDelivery: false },
        changedBy: ADMIN,
      },
      { oldValue: null, newValue: { code: '05', cost: null, cashOnDelivery: true }, changedBy: OTHER },
      { oldValue: null, newValue: { code: '05001', cost: 0, cashOnDelivery: true }, changedBy: ADMIN },
    ])
  })

  test('what checkout reads: the municipality’s zone, else its department’s, else the general cost', async () => {
    await saveShippingZone(t.db, zoneForm({ code: '05', cost: '15000' }), ADMIN)
    await saveShippingZone(t.db, zoneForm({ code: '05001', cost: '', cashOnDelivery: false }), ADMIN)
    const zones = await t.db.transaction((tx) => readShippingZones(tx))
    const rules = { shippingCost: 8_000_00, freeShippingThreshold: 150_000_00 }
    expect(rulesForPlace(rules, zones, { departmentCode: '05', municipalityCode: '05001' })).toEqual({
      ...rules,
      cashOnDelivery: false,
    })
    expect(rulesForPlace(rules, zones, { departmentCode: '05', municipalityCode: '05266' })).toEqual({
      ...rules,
      shippingCost: 15_000_00,
      cashOnDelivery: true,
    })
    expect(rulesForPlace(rules, zones, { departmentCode: '76', municipalityCode: '76001' })).toEqual({
      ...rules,
      cashOnDelivery: true,
    })
  })

  test('a code that has a zone is replaced (old → new audited); the same rules again write nothing', async () => {
    await saveShippingZone(t.db, zoneForm({ code: '05001', cost: '12000' }), ADMIN)
    expect(await saveShippingZone(t.db, zoneForm({ code: '05001', cost: '12.000' }), OTHER)).toEqual({
      changed: false,
    })
    expect(await rowCounts()).toEqual({ saved: 1, audited: 1 })
    await saveShippingZone(t.db, zoneForm({ code: '05001', cost: '', cashOnDelivery: false }), OTHER)
    expect(await readShippingZones(t.db)).toEqual([{ code: '05001', cost: null, cashOnDelivery: false }])
    const [latest] = await listSettingChanges(t.db, 1)
    expect(latest).toMatchObject({
      key: SHIPPING_ZONES_KEY,
      oldValue: { code: '05001', cost: 12_000_00, cashOnDelivery: true },
      newValue: { code: '05001', cost: null, cashOnDelivery: false },
      changedBy: OTHER,
    })
    expect(withReadableChanges([latest!])[0]).toMatchObject({
      oldValue: 'Medellín (Antioquia): $\u00a012.000,00, contra entrega: sí',
      newValue: 'Medellín (Antioquia): costo general, contra entrega: no',
    })
  })

  test('a refused zone writes nothing', async () => {
    const refused = await refusalOf(saveShippingZone(t.db, zoneForm({ code: '05999', cost: 'mucho' }), ADMIN))
    expect(refused).toBeInstanceOf(ShippingZoneRefused)
    expect((refused as ShippingZoneRefused).message).toBe(SETTINGS_MESSAGES.invalid)
    expect((refused as ShippingZoneRefused).status).toBe(422)
    expect((refused as ShippingZoneRefused).errors).toEqual({
      code: SHIPPING_ZONE_MESSAGES.code,
      cost: SETTINGS_MESSAGES.moneyWhole('Costo de envío'),
    })
    expect(await rowCounts()).toEqual({ saved: 0, audited: 0 })
  })

  test('removing: the zone goes with its audit row; a zone already gone is refused and writes nothing', async () => {
    await saveShippingZone(t.db, zoneForm({ code: '05', cost: '15000' }), ADMIN)
    await saveShippingZone(t.db, zoneForm({ code: '05001', cost: '9000' }), ADMIN)
    await removeShippingZone(t.db, '05', OTHER)
    expect(await readShippingZones(t.db)).toEqual([{ code: '05001', cost: 9_000_00, cashOnDelivery: true }])
    const [latest] = await listSettingChanges(t.db, 1)
    expect(latest).toMatchObject({
      key: SHIPPING_ZONES_KEY,
      oldValue: { code: '05', cost: 15_000_00, cashOnDelivery: true },
      newValue: null,
      changedBy: OTHER,
    })
    expect(await rowCounts()).toEqual({ saved: 1, audited: 3 })

    for (const code of ['05', '76001', 'x']) {
      const gone = await refusalOf(removeShippingZone(t.db, code, ADMIN))
      expect(gone).toBeInstanceOf(Refusal)
      expect((gone as Refusal).message).toBe(SHIPPING_ZONE_MESSAGES.notFound)
      expect((gone as Refusal).status).toBe(404)
    }
    expect(await rowCounts()).toEqual({ saved: 1, audited: 3 })
    await removeShippingZone(t.db, '05001', ADMIN)
    expect(await readShippingZones(t.db)).toEqual([])
  })

  test('two saves at once both stay (the settings lock), each with its audit row', async () => {
    await Promise.all([
      saveShippingZone(t.db, zoneForm({ code: '05001', cost: '9000' }), ADMIN),
      saveShippingZone(t.db, zoneForm({ code: '76001', cost: '7000' }), OTHER),
    ])
    expect((await readShippingZones(t.db)).map((zone) => zone.code)).toEqual(['05001', '76001'])
    expect(await rowCounts()).toEqual({ saved: 1, audited: 2 })
  })

  test(`at most ${MAX_SHIPPING_ZONES} zones; an existing one can still be replaced`, async () => {
    const codes = shippingZoneChoices()
      .flatMap((department) => department.municipalities.map((municipality) => municipality.code))
      .slice(0, MAX_SHIPPING_ZONES + 1)
    const full = codes
      .slice(0, MAX_SHIPPING_ZONES)
      .map((code) => ({ code, cost: null, cashOnDelivery: true }))
    await t.db.insert(settings).values({ key: SHIPPING_ZONES_KEY, value: full })
    const refused = await refusalOf(saveShippingZone(t.db, zoneForm({ code: codes.at(-1)! }), ADMIN))
    expect(refused).toBeInstanceOf(Refusal)
    expect((refused as Refusal).message).toBe(SHIPPING_ZONE_MESSAGES.tooMany)
    expect(await readShippingZones(t.db)).toHaveLength(MAX_SHIPPING_ZONES)
    expect(await rowCounts()).toEqual({ saved: 1, audited: 0 })
    await saveShippingZone(t.db, zoneForm({ code: codes[0]!, cost: '5000' }), ADMIN)
    expect(await rowCounts()).toEqual({ saved: 1, audited: 1 })
  })

  test('a list written by hand: entries of the wrong shape or with unknown codes are left out', async () => {
    await t.db.insert(settings).values({
      key: SHIPPING_ZONES_KEY,
      value: [
        { code: '05001', cost: 9_000_00, cashOnDelivery: false },
        { code: '05001', cost: 1, cashOnDelivery: true },
        { code: '99999', cost: null, cashOnDelivery: true },
        { code: '76', cost: -5, cashOnDelivery: true },
        { code: '76', cost: 1.5, cashOnDelivery: true },
        { code: '11', cost: null },
        'Antioquia',
        null,
        { code: '08', cost: null, cashOnDelivery: true },
      ],
    })
    expect(await readShippingZones(t.db)).toEqual([
      { code: '05001', cost: 9_000_00, cashOnDelivery: false },
      { code: '08', cost: null, cashOnDelivery: true },
    ])
    await t.db
      .update(settings)
      .set({ value: { code: '05' } })
      .where(eq(settings.key, SHIPPING_ZONES_KEY))
    expect(await readShippingZones(t.db)).toEqual([])
  })
})
