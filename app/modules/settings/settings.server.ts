import { desc, eq, inArray, notLike, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { Db, DbOrTx, Tx } from '#app/db/client.server.ts'
import type { ShippingRules, ShippingZone } from '#app/modules/cart/shipping.ts'
import { departmentCoded, DEPARTMENTS } from '#app/modules/places/departments.ts'
import { municipalitiesOf, municipalityCoded } from '#app/modules/places/places.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { formatCOP, pesosToCentavos } from '#app/utils/money.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { VatRate } from '#app/utils/vat.ts'
import { settingChanges, settings } from './schema.ts'
import {
  checkSettingsForm,
  checkShippingZoneForm,
  DEFAULT_WHATSAPP_TEXT,
  HOLD_LIMIT_KEYS,
  CARRIER_SETTING_DEFAULTS,
  CARRIER_SETTING_KEYS,
  INVOICE_SETTING_DEFAULTS,
  INVOICE_SETTING_KEYS,
  MAX_SETTING_PESOS,
  MAX_SHIPPING_ZONES,
  PAYMENT_SETTING_DEFAULTS,
  PAYMENT_SETTING_KEYS,
  SESSION_LIMIT_BOUNDS,
  SESSION_LIMIT_DEFAULTS,
  SESSION_LIMIT_KEYS,
  SETTING_CHOICES,
  SETTING_KEYS,
  SETTING_LABELS,
  SETTINGS_MESSAGES,
  SHIPPING_ZONE_MESSAGES,
  SHIPPING_ZONES_KEY,
  type CarrierQuoteChoice,
  type HoldLimits,
  type InvoiceTrigger,
  type SessionLimitSettings,
  type SettingKey,
  type SettingsFieldErrors,
  type SettingsFormValues,
  type ShippingZoneFieldErrors,
  type ShippingZoneFormValues,
  type StoreSettings,
} from './validators.ts'

/**
 * The settings before the owner saves any: the environment's values (SHIPPING_COST,
 * FREE_SHIPPING_THRESHOLD, WHATSAPP_CONTACT_NUMBER, SELLER_*, DELIVERY_TIME). A key saved once
 * in "Configuraciones" keeps its saved value from then on.
 */
export function settingDefaults(env: Env): StoreSettings {
  return {
    shippingCost: pesosToCentavos(env.SHIPPING_COST),
    freeShippingThreshold: pesosToCentavos(env.FREE_SHIPPING_THRESHOLD),
    whatsappNumber: env.WHATSAPP_CONTACT_NUMBER,
    whatsappText: DEFAULT_WHATSAPP_TEXT,
    sellerLegalName: env.SELLER_LEGAL_NAME,
    sellerNit: env.SELLER_NIT,
    sellerAddress: env.SELLER_ADDRESS,
    sellerEmail: env.SELLER_EMAIL,
    deliveryTime: env.DELIVERY_TIME,
    ...holdLimitDefaults(env),
    ...SESSION_LIMIT_DEFAULTS,
    ...INVOICE_SETTING_DEFAULTS,
    ...CARRIER_SETTING_DEFAULTS,
    ...PAYMENT_SETTING_DEFAULTS,
  }
}

/** The environment's hold limits (COD_MAX_OPEN_*): what applies until the owner saves others. */
export function holdLimitDefaults(env: Env): HoldLimits {
  return {
    maxOpenOrders: env.COD_MAX_OPEN_ORDERS,
    maxOpenUnits: env.COD_MAX_OPEN_UNITS,
    maxOpenOrdersPerAddress: env.COD_MAX_OPEN_ORDERS_PER_ADDRESS,
    maxOpenUnitsPerAddress: env.COD_MAX_OPEN_UNITS_PER_ADDRESS,
  }
}

/**
 * The hold limits as saved now. Checkout calls it inside the order's transaction, so the next order
 * follows a change at once. `defaults` are the first-run values (the environment's).
 */
export function readHoldLimits(db: DbOrTx, defaults: HoldLimits): Promise<HoldLimits> {
  const fallback = { ...({} as StoreSettings), ...defaults }
  return readKeys(db, fallback, HOLD_LIMIT_KEYS)
}

/**
 * The back-office session limits as saved now; a stored value outside its bounds (written by hand)
 * counts as never saved.
 */
export async function readSessionLimits(db: DbOrTx): Promise<SessionLimitSettings> {
  const fallback = { ...({} as StoreSettings), ...SESSION_LIMIT_DEFAULTS }
  const saved = await readKeys(db, fallback, SESSION_LIMIT_KEYS)
  const limits = { ...saved }
  for (const key of SESSION_LIMIT_KEYS) {
    const { min, max } = SESSION_LIMIT_BOUNDS[key]
    if (limits[key] < min || limits[key] > max) limits[key] = SESSION_LIMIT_DEFAULTS[key]
  }
  return limits
}

/** The session limits in the units the auth module judges sessions in. */
export function sessionLimitsInMs(limits: SessionLimitSettings): { idleMs: number; absoluteMs: number } {
  return { idleMs: limits.adminIdleMinutes * 60_000, absoluteMs: limits.adminSessionHours * 3_600_000 }
}

/**
 * How long a process goes on using the session limits it read. Every admin request needs them, and
 * they change about never: a save on this process applies at once (`saveStoreSettings` forgets
 * them), on the others within this time.
 */
export const SESSION_LIMITS_MAX_AGE_MS = 30_000

// Per database (one per shop; tests open several), like the cookies kept per sign-in configuration.
const keptSessionLimits = new WeakMap<object, { readAt: number; limits: Promise<SessionLimitSettings> }>()

/**
 * The session limits every admin request is judged by (admin middleware, sign-in, sign-out), read
 * from the database at most once a `SESSION_LIMITS_MAX_AGE_MS` per process.
 */
export async function adminSessionLimits(
  db: Db,
  now = Date.now(),
): Promise<{ idleMs: number; absoluteMs: number }> {
  let kept = keptSessionLimits.get(db)
  if (!kept || now - kept.readAt >= SESSION_LIMITS_MAX_AGE_MS || now < kept.readAt) {
    const limits = readSessionLimits(db)
    kept = { readAt: now, limits }
    keptSessionLimits.set(db, kept)
    // A failed read is not kept: the next request tries again.
    limits.catch(() => {
      if (keptSessionLimits.get(db)?.limits === limits) keptSessionLimits.delete(db)
    })
  }
  return sessionLimitsInMs(await kept.limits)
}

/**
 * A jsonb column read as its JSON text: drizzle's jsonb reader parses a string value a second time
 * on PGlite ("573001234567" came back as a number), so the JSON is read as text and parsed here.
 */
function jsonText(column: AnyPgColumn) {
  return sql<string | null>`${column}::text`
}

function parseJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text)
}

/**
 * A stored value of the right type (a number for money, text otherwise, one of its choices for a
 * setting chosen from a list); anything else is ignored.
 */
function storedValue(key: SettingKey, value: unknown, fallback: StoreSettings): unknown {
  const choices = SETTING_CHOICES[key]
  if (choices) return typeof value === 'string' && choices.includes(value) ? value : undefined
  const wanted = typeof fallback[key]
  if (wanted === 'number') return Number.isSafeInteger(value) && (value as number) >= 0 ? value : undefined
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

async function readKeys<K extends SettingKey>(
  db: DbOrTx,
  defaults: StoreSettings,
  keys: readonly K[],
): Promise<Pick<StoreSettings, K>> {
  const rows = await db
    .select({ key: settings.key, value: jsonText(settings.value) })
    .from(settings)
    .where(inArray(settings.key, [...keys]))
  const result = Object.fromEntries(keys.map((key) => [key, defaults[key]])) as Pick<StoreSettings, K>
  for (const row of rows) {
    const key = row.key as K
    const value = storedValue(key, parseJson(row.value), defaults)
    if (value !== undefined) (result as Record<string, unknown>)[key] = value
  }
  return result
}

/** The settings as they are now: each saved value, or its default when never saved. */
export function readStoreSettings(db: DbOrTx, defaults: StoreSettings): Promise<StoreSettings> {
  return readKeys(db, defaults, SETTING_KEYS)
}

/**
 * The shipping rules as saved now. Checkout calls it inside the order's transaction, so an order
 * placed after a change pays the new cost. `defaults` are the first-run values (the environment's).
 */
export function readShippingRules(db: DbOrTx, defaults: ShippingRules): Promise<ShippingRules> {
  const fallback = { ...({} as StoreSettings), ...defaults }
  return readKeys(db, fallback, ['shippingCost', 'freeShippingThreshold'] as const)
}

export type InvoiceSettings = {
  /** `auto`: issued when an online payment is confirmed or a cash-on-delivery order is delivered. */
  trigger: InvoiceTrigger
  /** The IVA of a product whose own is null ("Según la configuración"). */
  defaultVat: VatRate
}

/**
 * "Facturación electrónica" as saved now: when invoices are issued and the products' default IVA
 * (`auto` and 19 % until the owner saves others). Reads fresh each call, in the caller's
 * transaction when given one.
 */
export async function readInvoiceSettings(db: DbOrTx): Promise<InvoiceSettings> {
  const fallback = { ...({} as StoreSettings), ...INVOICE_SETTING_DEFAULTS }
  const saved = await readKeys(db, fallback, INVOICE_SETTING_KEYS)
  return { trigger: saved.invoiceTrigger, defaultVat: saved.defaultVat }
}

/** A parcel's size when a product has none of its own: grams and centimetres. */
export type PackageSize = { weightGrams: number; lengthCm: number; widthCm: number; heightCm: number }

export type CarrierSettings = {
  /** How the checkout prices shipping: the flat cost (and zones), or a live quote. */
  quotes: CarrierQuoteChoice
  /** Where the carrier picks parcels up; null until street, municipality and phone are all saved. */
  origin: { street: string; municipalityCode: string; phone: string } | null
  /** The sender on the guía: the seller of "Configuraciones". */
  sender: { name: string; nit: string; email: string }
  defaultPackage: PackageSize
  /** The carrier's "entregado" completes an order shipped with its guía. */
  completeOnDelivery: boolean
}

/** "Envíos con transportadora" as saved now, with the seller's name, NIT and e-mail as sender. */
export async function readCarrierSettings(db: DbOrTx, env: Env): Promise<CarrierSettings> {
  const saved = await readKeys(db, settingDefaults(env), [
    ...CARRIER_SETTING_KEYS,
    'sellerLegalName',
    'sellerNit',
    'sellerEmail',
  ] as const)
  const street = saved.carrierOriginStreet.trim()
  const municipalityCode = saved.carrierOriginMunicipality.trim()
  const phone = saved.carrierOriginPhone.trim()
  return {
    quotes: saved.carrierQuotes,
    origin: street && municipalityCode && phone ? { street, municipalityCode, phone } : null,
    sender: { name: saved.sellerLegalName, nit: saved.sellerNit, email: saved.sellerEmail },
    defaultPackage: {
      weightGrams: saved.parcelWeightGrams,
      lengthCm: saved.parcelLengthCm,
      widthCm: saved.parcelWidthCm,
      heightCm: saved.parcelHeightCm,
    },
    completeOnDelivery: saved.completeOnDelivery === 'yes',
  }
}

/** "Pagos" as saved now: the ways to pay the owner turned on, and where transfers go. */
export type PaymentSettings = {
  mercadopago: boolean
  wompi: boolean
  /** Null while transfers are off (or nowhere to send them was saved). */
  transfer: { brebKey: string; account: string; deadlineHours: number } | null
  /** How long an unpaid transfer order keeps its units (also those placed before transfers were turned off). */
  transferDeadlineHours: number
}

/** "Pagos" as saved now (online providers on, transfers off until the owner saves otherwise). */
export async function readPaymentSettings(db: DbOrTx): Promise<PaymentSettings> {
  const fallback = { ...({} as StoreSettings), ...PAYMENT_SETTING_DEFAULTS }
  const saved = await readKeys(db, fallback, PAYMENT_SETTING_KEYS)
  const brebKey = saved.transferBrebKey.trim()
  const account = saved.transferAccount.trim()
  return {
    mercadopago: saved.paymentMercadoPago === 'yes',
    wompi: saved.paymentWompi === 'yes',
    transfer:
      saved.paymentTransfer === 'yes' && (brebKey || account)
        ? { brebKey, account, deadlineHours: saved.transferDeadlineHours }
        : null,
    transferDeadlineHours: saved.transferDeadlineHours,
  }
}

/** The environment's shipping rules: what applies until the owner saves others. */
export function shippingDefaults(env: Env): ShippingRules {
  const { shippingCost, freeShippingThreshold } = settingDefaults(env)
  return { shippingCost, freeShippingThreshold }
}

/** The shipping rules as saved now, with the environment's as first-run defaults. */
export function readStoreShipping(db: DbOrTx, env: Env): Promise<ShippingRules> {
  return readShippingRules(db, shippingDefaults(env))
}

export type StoreInfo = {
  storeName: string
  /** Canonical origin, e.g. https://tienda.example (no trailing slash). */
  publicUrl: string
  whatsappNumber: string
  /** The text the WhatsApp buttons open the chat with. */
  whatsappText: string
  shipping: ShippingRules
  seller: { legalName: string; nit: string; address: string; email: string; phone: string }
  /** Ley 1480, art. 50: how long delivery takes, shown in the footer. */
  deliveryTime: string
}

/** What every storefront page needs to know about the shop, read fresh (no restart after a change). */
export async function getStoreInfo(db: DbOrTx, env: Env): Promise<StoreInfo> {
  const current = await readStoreSettings(db, settingDefaults(env))
  return {
    storeName: env.STORE_NAME,
    publicUrl: env.publicUrl,
    whatsappNumber: current.whatsappNumber,
    whatsappText: current.whatsappText,
    shipping: {
      shippingCost: current.shippingCost,
      freeShippingThreshold: current.freeShippingThreshold,
    },
    seller: {
      legalName: current.sellerLegalName,
      nit: current.sellerNit,
      address: current.sellerAddress,
      email: current.sellerEmail,
      phone: current.whatsappNumber,
    },
    deliveryTime: current.deliveryTime,
  }
}

/** A settings form the shop will not save: one message per field, nothing written. */
export class SettingsRefused extends Refusal {
  readonly errors: SettingsFieldErrors
  constructor(errors: SettingsFieldErrors) {
    super(SETTINGS_MESSAGES.invalid, { status: 422, standsAlone: true })
    this.errors = errors
  }
}

/** One audit row: what changed, from what to what, who and when (in the caller's transaction). */
export async function recordSettingChange(
  tx: Tx,
  change: { key: string; oldValue: unknown; newValue: unknown; by: string },
) {
  await tx.insert(settingChanges).values({
    key: change.key,
    oldValue: change.oldValue ?? null,
    newValue: change.newValue ?? null,
    changedBy: change.by,
  })
}

/** Writes one setting's new value with its audit row (in the caller's transaction, under `lockSettings`). */
export async function writeSetting(
  tx: Tx,
  key: string,
  change: { before: unknown; after: unknown; by: string },
) {
  await tx
    .insert(settings)
    .values({ key, value: change.after })
    .onConflictDoUpdate({ target: settings.key, set: { value: change.after, updatedAt: sql`now()` } })
  await recordSettingChange(tx, { key, oldValue: change.before, newValue: change.after, by: change.by })
}

/** Saves of settings and banners run one at a time, so each audit row's old value is the real one. */
export async function lockSettings(tx: Tx) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('vitrina.settings'))`)
}

/**
 * Saves the settings form of the admin `by` (their e-mail): every field is checked first (a refusal,
 * `SettingsRefused`, writes nothing); then, in one transaction, only the fields the admin changed
 * from what the form was `loaded` with are written, each with an audit row. A field the admin
 * changed that someone else changed too since the form loaded refuses the whole save (nothing
 * written, the admin reloads): two admins saving from the same page never undo each other. Keys
 * never saved keep following their default.
 */
export async function saveStoreSettings(
  db: Db,
  defaults: StoreSettings,
  values: SettingsFormValues,
  loaded: StoreSettings | null,
  by: string,
): Promise<{ changed: SettingKey[]; changes: { key: SettingKey; before: unknown; after: unknown }[] }> {
  if (!loaded) throw new Refusal(SETTINGS_MESSAGES.stale, { status: 400, standsAlone: true })
  const checked = checkSettingsForm(values, isMunicipalityCode)
  if (!checked.ok) throw new SettingsRefused(checked.errors)
  const next = checked.settings
  const edited = SETTING_KEYS.filter((key) => loaded[key] !== next[key])
  const saved = await db.transaction(async (tx) => {
    await lockSettings(tx)
    const current = await readStoreSettings(tx, defaults)
    const conflicts = edited.filter((key) => current[key] !== loaded[key] && current[key] !== next[key])
    if (conflicts.length)
      throw new Refusal(SETTINGS_MESSAGES.conflict(conflicts.map((key) => SETTING_LABELS[key])), {
        status: 409,
        standsAlone: true,
      })
    const changed = edited.filter((key) => current[key] !== next[key])
    for (const key of changed) await writeSetting(tx, key, { before: current[key], after: next[key], by })
    return { changed, changes: changed.map((key) => ({ key, before: current[key], after: next[key] })) }
  })
  if (saved.changed.some((key) => (SESSION_LIMIT_KEYS as readonly string[]).includes(key))) {
    keptSessionLimits.delete(db)
  }
  return saved
}

export type SettingChange = {
  id: number
  key: string
  oldValue: unknown
  newValue: unknown
  changedBy: string
  changedAt: string
}

/**
 * A key with a dot ("messages.notifyNumbers") is another page's setting kept in this table
 * ("Mensajes y Notificaciones"), which lists its own changes: "Últimos cambios" leaves it out.
 */
const OTHER_PAGES_KEYS = '%.%'

/** The latest changes, newest first ("Últimos cambios"), without other pages' (`OTHER_PAGES_KEYS`). */
export async function listSettingChanges(db: DbOrTx, limit = 20): Promise<SettingChange[]> {
  const rows = await db
    .select({
      id: settingChanges.id,
      key: settingChanges.key,
      oldValue: jsonText(settingChanges.oldValue),
      newValue: jsonText(settingChanges.newValue),
      changedBy: settingChanges.changedBy,
      changedAt: settingChanges.changedAt,
    })
    .from(settingChanges)
    .where(notLike(settingChanges.key, OTHER_PAGES_KEYS))
    .orderBy(desc(settingChanges.changedAt), desc(settingChanges.id))
    .limit(limit)
  return rows.map((row) => ({
    ...row,
    oldValue: parseJson(row.oldValue),
    newValue: parseJson(row.newValue),
    changedAt: row.changedAt.toISOString(),
  }))
}

// ——— "Envío por zona" ———

/** Whether `code` is a department ("05") or a municipality ("05001") of DANE's DIVIPOLA list. */
export function isShippingZoneCode(code: string): boolean {
  if (/^\d{2}$/.test(code)) return departmentCoded(code) !== undefined
  return isMunicipalityCode(code)
}

/** Whether `code` is a municipality ("05001") of DANE's DIVIPOLA list (the carrier's pickup). */
export function isMunicipalityCode(code: string): boolean {
  return /^\d{5}$/.test(code) && municipalityCoded(code) !== undefined
}

/** Where a zone is, as the owner reads it: "Medellín (Antioquia)", "Antioquia (todo el departamento)". */
export function shippingZonePlace(code: string): string {
  const municipality = municipalityCoded(code)
  if (municipality) {
    const department = departmentCoded(municipality.departmentCode)
    return department ? `${municipality.name} (${department.name})` : municipality.name
  }
  const department = departmentCoded(code)
  return department ? `${department.name} (todo el departamento)` : code
}

const placeCollator = new Intl.Collator('es', { sensitivity: 'base' })

/** What a zone sorts by: its department's name, the department's own zone first, then the municipality's name. */
function zoneSortKey(code: string): [string, string] {
  const municipality = municipalityCoded(code)
  const departmentCode = municipality?.departmentCode ?? code
  return [departmentCoded(departmentCode)?.name ?? departmentCode, municipality?.name ?? '']
}

function sortZones(zones: ShippingZone[]): ShippingZone[] {
  return [...zones].sort((a, b) => {
    const [departmentA, municipalityA] = zoneSortKey(a.code)
    const [departmentB, municipalityB] = zoneSortKey(b.code)
    return (
      placeCollator.compare(departmentA, departmentB) ||
      placeCollator.compare(municipalityA, municipalityB) ||
      a.code.localeCompare(b.code)
    )
  })
}

/** A stored zone of the right shape, or null (a list written by hand may hold anything). */
function storedZone(value: unknown): ShippingZone | null {
  if (typeof value !== 'object' || value === null) return null
  const { code, cost, cashOnDelivery } = value as Record<string, unknown>
  if (typeof code !== 'string' || !isShippingZoneCode(code)) return null
  const costOk =
    cost === null ||
    (Number.isSafeInteger(cost) && (cost as number) >= 0 && (cost as number) <= MAX_SETTING_PESOS * 100)
  if (!costOk || typeof cashOnDelivery !== 'boolean') return null
  return { code, cost: cost as number | null, cashOnDelivery }
}

/**
 * The shipping zones as saved now, sorted by department then municipality name; an empty list when
 * never saved. Checkout may call it inside the order's transaction (with `rulesForPlace`), so the
 * next order follows a change at once. A stored entry of the wrong shape or with an unknown code
 * is left out, and a code listed twice counts once.
 */
export async function readShippingZones(db: DbOrTx): Promise<ShippingZone[]> {
  const [row] = await db
    .select({ value: jsonText(settings.value) })
    .from(settings)
    .where(eq(settings.key, SHIPPING_ZONES_KEY))
  const stored = row ? parseJson(row.value) : null
  if (!Array.isArray(stored)) return []
  const byCode = new Map<string, ShippingZone>()
  for (const entry of stored) {
    const zone = storedZone(entry)
    if (zone && !byCode.has(zone.code)) byCode.set(zone.code, zone)
  }
  return sortZones([...byCode.values()])
}

export type AdminShippingZone = ShippingZone & { place: string }

/** The zones for "Configuraciones", each with where it is ("Medellín (Antioquia)"). */
export async function listShippingZones(db: DbOrTx): Promise<AdminShippingZone[]> {
  return (await readShippingZones(db)).map((zone) => ({ ...zone, place: shippingZonePlace(zone.code) }))
}

export type ShippingZoneChoice = {
  code: string
  name: string
  municipalities: { code: string; name: string }[]
}

let zoneChoices: ShippingZoneChoice[] | undefined

/**
 * What the zone form's select offers: every department (in the checkout's order) with its
 * municipalities in alphabetical order.
 */
export function shippingZoneChoices(): ShippingZoneChoice[] {
  zoneChoices ??= DEPARTMENTS.map((department) => ({
    code: department.code,
    name: department.name,
    municipalities: municipalitiesOf(department.code).map(({ code, name }) => ({ code, name })),
  }))
  return zoneChoices
}

/** A zone form the shop will not save: one message per field, nothing written. */
export class ShippingZoneRefused extends Refusal {
  readonly errors: ShippingZoneFieldErrors
  constructor(errors: ShippingZoneFieldErrors) {
    super(SETTINGS_MESSAGES.invalid, { status: 422, standsAlone: true })
    this.errors = errors
  }
}

async function writeShippingZones(tx: Tx, zones: ShippingZone[]) {
  const value = sortZones(zones)
  await tx
    .insert(settings)
    .values({ key: SHIPPING_ZONES_KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } })
}

const sameZone = (a: ShippingZone, b: ShippingZone) =>
  a.code === b.code && a.cost === b.cost && a.cashOnDelivery === b.cashOnDelivery

/**
 * Adds the zone posted by the admin `by` (their e-mail), or replaces the one its code already has,
 * in one transaction with its audit row (old zone → new zone). A refused form
 * (`ShippingZoneRefused`) or one zone too many writes nothing; the same rules again write nothing
 * and answer `changed: false`.
 */
export async function saveShippingZone(
  db: Db,
  values: ShippingZoneFormValues,
  by: string,
): Promise<{ changed: boolean }> {
  const checked = checkShippingZoneForm(values, isShippingZoneCode)
  if (!checked.ok) throw new ShippingZoneRefused(checked.errors)
  const zone = checked.zone
  return db.transaction(async (tx) => {
    await lockSettings(tx)
    const current = await readShippingZones(tx)
    const before = current.find((other) => other.code === zone.code) ?? null
    if (before && sameZone(before, zone)) return { changed: false }
    if (!before && current.length >= MAX_SHIPPING_ZONES)
      throw new Refusal(SHIPPING_ZONE_MESSAGES.tooMany, { status: 422, standsAlone: true })
    await writeShippingZones(tx, [...current.filter((other) => other.code !== zone.code), zone])
    await recordSettingChange(tx, { key: SHIPPING_ZONES_KEY, oldValue: before, newValue: zone, by })
    return { changed: true }
  })
}

/**
 * Removes the zone of `code`, in one transaction with its audit row (zone → nothing); a code with
 * no zone (removed meanwhile) is refused with a 404 and writes nothing.
 */
export async function removeShippingZone(db: Db, code: string, by: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSettings(tx)
    const current = await readShippingZones(tx)
    const before = current.find((zone) => zone.code === code)
    if (!before) throw new Refusal(SHIPPING_ZONE_MESSAGES.notFound, { status: 404, standsAlone: true })
    await writeShippingZones(
      tx,
      current.filter((zone) => zone.code !== code),
    )
    await recordSettingChange(tx, { key: SHIPPING_ZONES_KEY, oldValue: before, newValue: null, by })
  })
}

/** A zone of the history as the owner reads it: "Medellín (Antioquia): $ 12.000,00, contra entrega: no". */
function zoneSummary(value: unknown): unknown {
  const zone = storedZone(value)
  if (!zone) return value
  const cost = zone.cost === null ? 'costo general' : formatCOP(zone.cost)
  return `${shippingZonePlace(zone.code)}: ${cost}, contra entrega: ${zone.cashOnDelivery ? 'sí' : 'no'}`
}

/** The carrier's pickup municipality of the history: "Medellín (Antioquia)" for "05001". */
function municipalitySummary(value: unknown): unknown {
  return typeof value === 'string' && isMunicipalityCode(value) ? shippingZonePlace(value) : value
}

/**
 * "Últimos cambios" with each shipping zone's change and each pickup municipality written out in
 * words (other changes as they are).
 */
export function withReadableChanges(changes: SettingChange[]): SettingChange[] {
  return changes.map((change) =>
    change.key === SHIPPING_ZONES_KEY
      ? { ...change, oldValue: zoneSummary(change.oldValue), newValue: zoneSummary(change.newValue) }
      : change.key === 'carrierOriginMunicipality'
        ? {
            ...change,
            oldValue: municipalitySummary(change.oldValue),
            newValue: municipalitySummary(change.newValue),
          }
        : change,
  )
}
