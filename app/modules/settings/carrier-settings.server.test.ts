import { count } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { settingChanges, settings } from './schema.ts'
import {
  isMunicipalityCode,
  listSettingChanges,
  readCarrierSettings,
  readStoreSettings,
  saveStoreSettings,
  settingDefaults,
  SettingsRefused,
  withReadableChanges,
} from './settings.server.ts'
import {
  checkSettingsForm,
  loadedSettings,
  normalizeCarrierPhone,
  SETTINGS_MESSAGES,
  settingsAsFormValues,
  type SettingsFormValues,
} from './validators.ts'

/**
 * "Envíos con transportadora" in "Configuraciones": how the checkout prices shipping, the carrier's
 * pickup (street, DANE municipality, phone), the default package and whether delivery completes the
 * order. Checked field by field in Spanish, saved like any setting and read by `readCarrierSettings`.
 */

const t = setupTestDatabase()
const env = parseEnv({
  SELLER_LEGAL_NAME: 'Joyas del Entorno S.A.S.',
  SELLER_NIT: '900.123.456-7',
  SELLER_EMAIL: 'entorno@joyas.example',
})
const defaults = settingDefaults(env)
const ADMIN = 'duena@vitrina.test'

/** The form as the page shows it now, with some fields typed over. */
async function formWith(changes: Partial<SettingsFormValues>): Promise<SettingsFormValues> {
  return { ...settingsAsFormValues(await readStoreSettings(t.db, defaults)), ...changes }
}

const save = async (changes: Partial<SettingsFormValues>) =>
  saveStoreSettings(t.db, defaults, await formWith(changes), await readStoreSettings(t.db, defaults), ADMIN)

const check = (changes: Partial<SettingsFormValues>) =>
  checkSettingsForm({ ...settingsAsFormValues(defaults), ...changes }, isMunicipalityCode)

async function rowCounts() {
  const [saved] = await t.db.select({ n: count() }).from(settings)
  const [audited] = await t.db.select({ n: count() }).from(settingChanges)
  return { saved: saved!.n, audited: audited!.n }
}

beforeEach(async () => {
  await t.db.delete(settings)
  await t.db.delete(settingChanges)
})

describe('the carrier fields of the settings form', () => {
  test.each([
    ['3001234567', '3001234567'],
    ['300 123 4567', '3001234567'],
    ['300-123-4567', '3001234567'],
    ['+57 300 123 4567', '3001234567'],
    ['573001234567', '3001234567'],
    ['(601) 234 5678', '6012345678'],
    ['+57 604-444-1234', '6044441234'],
  ])('the pickup phone %j is kept as its 10 digits', (typed, stored) => {
    expect(normalizeCarrierPhone(typed)).toBe(stored)
    const checked = check({ carrierOriginPhone: typed })
    expect(checked.ok && checked.settings.carrierOriginPhone).toBe(stored)
  })

  test.each(['2001234567', '300123456', '30012345678', '6112345678', '4441234', '+1 300 123 4567', 'tres'])(
    'the pickup phone %j is refused in Spanish',
    (typed) => {
      expect(normalizeCarrierPhone(typed)).toBeNull()
      expect(check({ carrierOriginPhone: typed })).toEqual({
        ok: false,
        errors: { carrierOriginPhone: SETTINGS_MESSAGES.originPhone },
      })
    },
  )

  test('good values are kept as typed (numbers as numbers); empty pickup fields are allowed', () => {
    const checked = check({
      carrierQuotes: 'coordinadora',
      carrierOriginStreet: '  Calle 10 # 43-12, local 105 ',
      carrierOriginMunicipality: '05001',
      carrierOriginPhone: '300 123 4567',
      parcelWeightGrams: '1.500',
      parcelLengthCm: '30',
      parcelWidthCm: '1',
      parcelHeightCm: '200',
      completeOnDelivery: 'yes',
    })
    expect(checked.ok && checked.settings).toMatchObject({
      carrierQuotes: 'coordinadora',
      carrierOriginStreet: 'Calle 10 # 43-12, local 105',
      carrierOriginMunicipality: '05001',
      carrierOriginPhone: '3001234567',
      parcelWeightGrams: 1500,
      parcelLengthCm: 30,
      parcelWidthCm: 1,
      parcelHeightCm: 200,
      completeOnDelivery: 'yes',
    })
    const empty = check({ carrierOriginStreet: ' ', carrierOriginMunicipality: '', carrierOriginPhone: '' })
    expect(empty.ok && empty.settings).toMatchObject({
      carrierOriginStreet: '',
      carrierOriginMunicipality: '',
      carrierOriginPhone: '',
    })
    // The form shows the numbers as text.
    expect(settingsAsFormValues(defaults)).toMatchObject({
      parcelWeightGrams: '300',
      parcelLengthCm: '20',
      parcelWidthCm: '15',
      parcelHeightCm: '8',
    })
  })

  test('bad values are refused field by field, each with its Spanish message', () => {
    expect(
      check({
        carrierQuotes: 'dhl',
        carrierOriginStreet: 'x'.repeat(201),
        carrierOriginMunicipality: 'Medellín',
        parcelWeightGrams: '50001',
        parcelLengthCm: '0',
        parcelWidthCm: '1,5',
        parcelHeightCm: '201',
        completeOnDelivery: 'tal vez',
      }),
    ).toEqual({
      ok: false,
      errors: {
        carrierQuotes:
          'Elige cómo se calcula el costo de envío en el checkout entre las opciones de la lista.',
        carrierOriginStreet: 'Dirección de recogida: máximo 200 caracteres.',
        carrierOriginMunicipality: 'Elige el municipio de recogida de la lista, o «Sin definir».',
        parcelWeightGrams: 'Peso del paquete por defecto (g): escribe un número entero entre 1 y 50.000.',
        parcelLengthCm: 'Largo del paquete por defecto (cm): escribe un número entero entre 1 y 200.',
        parcelWidthCm: 'Ancho del paquete por defecto (cm): escribe un número entero entre 1 y 200.',
        parcelHeightCm: 'Alto del paquete por defecto (cm): escribe un número entero entre 1 y 200.',
        completeOnDelivery: 'Elige si el pedido se completa cuando la transportadora lo entrega.',
      },
    })
    for (const blank of ['', ' ']) {
      expect(check({ parcelWeightGrams: blank })).toMatchObject({
        ok: false,
        errors: { parcelWeightGrams: expect.stringContaining('número entero entre 1 y 50.000') },
      })
    }
  })

  test('a five-digit code DANE does not list is refused (checked on the server), even beside other errors', () => {
    expect(isMunicipalityCode('05001')).toBe(true)
    expect(isMunicipalityCode('05999')).toBe(false)
    expect(isMunicipalityCode('05')).toBe(false)
    expect(check({ carrierOriginMunicipality: '05999' })).toEqual({
      ok: false,
      errors: { carrierOriginMunicipality: SETTINGS_MESSAGES.originMunicipality },
    })
    expect(check({ carrierOriginMunicipality: '05999', parcelLengthCm: '0' })).toMatchObject({
      ok: false,
      errors: {
        carrierOriginMunicipality: SETTINGS_MESSAGES.originMunicipality,
        parcelLengthCm: expect.stringContaining('Largo'),
      },
    })
    // The existence check is the caller's: the shape alone passes a callback that knows every code.
    expect(
      checkSettingsForm({ ...settingsAsFormValues(defaults), carrierOriginMunicipality: '05999' }, () => true)
        .ok,
    ).toBe(true)
  })
})

describe('saving and reading "Envíos con transportadora"', () => {
  test('flat cost, no pickup, the small box and no completion until saved; the seller signs the guía', async () => {
    expect(await readCarrierSettings(t.db, env)).toEqual({
      quotes: 'flat',
      origin: null,
      sender: { name: 'Joyas del Entorno S.A.S.', nit: '900.123.456-7', email: 'entorno@joyas.example' },
      defaultPackage: { weightGrams: 300, lengthCm: 20, widthCm: 15, heightCm: 8 },
      completeOnDelivery: false,
    })
  })

  test('the pickup counts only once street, municipality and phone are all saved; each change is audited', async () => {
    expect(
      (await save({ carrierOriginStreet: 'Calle 10 # 43-12', carrierOriginMunicipality: '05001' })).changed,
    ).toEqual(['carrierOriginStreet', 'carrierOriginMunicipality'])
    expect((await readCarrierSettings(t.db, env)).origin).toBeNull()

    await save({ carrierOriginPhone: '+57 300-123-4567' })
    expect((await readCarrierSettings(t.db, env)).origin).toEqual({
      street: 'Calle 10 # 43-12',
      municipalityCode: '05001',
      phone: '3001234567',
    })
    expect((await formWith({})).carrierOriginPhone).toBe('3001234567')

    await save({
      carrierQuotes: 'cheapest',
      parcelWeightGrams: '450',
      parcelLengthCm: '25',
      parcelWidthCm: '18',
      parcelHeightCm: '10',
      completeOnDelivery: 'yes',
    })
    expect(await readCarrierSettings(t.db, env)).toMatchObject({
      quotes: 'cheapest',
      defaultPackage: { weightGrams: 450, lengthCm: 25, widthCm: 18, heightCm: 10 },
      completeOnDelivery: true,
    })

    // Clearing the phone takes the pickup away again; "no" turns completion off.
    await save({ carrierOriginPhone: '', completeOnDelivery: 'no' })
    expect(await readCarrierSettings(t.db, env)).toMatchObject({ origin: null, completeOnDelivery: false })

    // "Últimos cambios" names the municipality and words the choices.
    const changes = withReadableChanges(await listSettingChanges(t.db))
    const byKey = (key: string) => changes.filter((change) => change.key === key)
    expect(byKey('carrierOriginMunicipality')).toEqual([
      expect.objectContaining({ oldValue: '', newValue: 'Medellín (Antioquia)', changedBy: ADMIN }),
    ])
    expect(byKey('carrierOriginPhone').map(({ oldValue, newValue }) => [oldValue, newValue])).toEqual([
      ['3001234567', ''],
      ['', '3001234567'],
    ])
    expect(byKey('parcelWeightGrams')).toEqual([expect.objectContaining({ oldValue: 300, newValue: 450 })])
    expect(await rowCounts()).toEqual({ saved: 9, audited: 11 })
  })

  test('a refused carrier field writes nothing; a form loaded before these settings existed is stale', async () => {
    const refused = await save({ carrierOriginMunicipality: '05999', carrierOriginPhone: '123' }).catch(
      (thrown: unknown) => thrown,
    )
    expect(refused).toBeInstanceOf(SettingsRefused)
    expect((refused as SettingsRefused).errors).toEqual({
      carrierOriginMunicipality: SETTINGS_MESSAGES.originMunicipality,
      carrierOriginPhone: SETTINGS_MESSAGES.originPhone,
    })
    expect(await rowCounts()).toEqual({ saved: 0, audited: 0 })

    const loaded = await readStoreSettings(t.db, defaults)
    expect(loadedSettings(JSON.stringify(loaded))).toEqual(loaded)
    const { carrierQuotes: _quotes, parcelWeightGrams: _weight, ...older } = loaded
    expect(loadedSettings(JSON.stringify(older))).toBeNull()
    expect(loadedSettings(JSON.stringify({ ...loaded, completeOnDelivery: 'quizás' }))).toBeNull()
  })
})
