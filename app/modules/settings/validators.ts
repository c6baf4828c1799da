import { z } from 'zod'
import type { ShippingZone } from '#app/modules/cart/shipping.ts'
import { PARCEL_BOUNDS } from '#app/utils/parcel-bounds.ts'
import { VAT_LABELS, VAT_RATES, type VatRate } from '#app/utils/vat.ts'
import { normalizeWhatsappNumber } from '#app/utils/whatsapp.ts'
import { formText, formTexts, postedJson } from '#app/utils/form-text.ts'

/**
 * The shop settings the owner edits in "Configuraciones" (money in centavos). Shared by the admin
 * form and the server, so this file imports nothing server-only.
 */
export type StoreSettings = {
  shippingCost: number
  freeShippingThreshold: number
  /** Digits with the country code, as wa.me wants it: 573001234567. */
  whatsappNumber: string
  /** The message the WhatsApp buttons open with. */
  whatsappText: string
  sellerLegalName: string
  sellerNit: string
  sellerAddress: string
  sellerEmail: string
  /** Ley 1480, art. 50: how long delivery takes, shown in the footer. */
  deliveryTime: string
} & HoldLimits &
  SessionLimitSettings &
  InvoiceSettingValues &
  CarrierSettingValues &
  PaymentSettingValues

/**
 * How much one customer may hold with orders nobody has paid or confirmed yet (cash on delivery
 * awaiting its WhatsApp confirmation, Mercado Pago awaiting its payment): both keep units from
 * other shoppers until they expire. Counted by phone, and by client network with higher numbers
 * (carrier NAT puts many phones behind one address).
 */
export type HoldLimits = {
  maxOpenOrders: number
  maxOpenUnits: number
  maxOpenOrdersPerAddress: number
  maxOpenUnitsPerAddress: number
}

export const HOLD_LIMIT_KEYS = [
  'maxOpenOrders',
  'maxOpenUnits',
  'maxOpenOrdersPerAddress',
  'maxOpenUnitsPerAddress',
] as const satisfies readonly (keyof HoldLimits)[]

/** Hold limits are whole counts from 1 to this. */
export const MAX_HOLD_LIMIT = 100_000_000

/**
 * How long a back-office session lasts: it ends after `adminIdleMinutes` without any request, or
 * `adminSessionHours` after signing in whatever the activity, whichever comes first.
 */
export type SessionLimitSettings = {
  adminIdleMinutes: number
  adminSessionHours: number
}

export const SESSION_LIMIT_KEYS = [
  'adminIdleMinutes',
  'adminSessionHours',
] as const satisfies readonly (keyof SessionLimitSettings)[]

/**
 * 12 hours without activity, 7 days in all, until the owner saves others: the only defaults of the
 * session limits (the services registry hands the auth module the limits read from here).
 */
export const SESSION_LIMIT_DEFAULTS: SessionLimitSettings = {
  adminIdleMinutes: 12 * 60,
  adminSessionHours: 7 * 24,
}

/** Idle: 15 minutes to 7 days; in all: 1 hour to 30 days. */
export const SESSION_LIMIT_BOUNDS = {
  adminIdleMinutes: { min: 15, max: 7 * 24 * 60 },
  adminSessionHours: { min: 1, max: 30 * 24 },
} as const satisfies Record<keyof SessionLimitSettings, { min: number; max: number }>

/**
 * "Facturación electrónica": when a DIAN invoice is issued, `auto` (when an online payment is
 * confirmed, or when a cash-on-delivery order is delivered) or `manual` (only when the owner issues
 * it from the order), and the IVA of every product that has no rate of its own.
 */
export const INVOICE_TRIGGERS = ['auto', 'manual'] as const
export type InvoiceTrigger = (typeof INVOICE_TRIGGERS)[number]

export type InvoiceSettingValues = {
  invoiceTrigger: InvoiceTrigger
  defaultVat: VatRate
}

export const INVOICE_SETTING_KEYS = [
  'invoiceTrigger',
  'defaultVat',
] as const satisfies readonly (keyof InvoiceSettingValues)[]

/** Automatic invoices and 19 % IVA until the owner saves others. */
export const INVOICE_SETTING_DEFAULTS: InvoiceSettingValues = {
  invoiceTrigger: 'auto',
  defaultVat: '19',
}

/** The radio's options, as the form and "Últimos cambios" word them. */
export const INVOICE_TRIGGER_LABELS: Record<InvoiceTrigger, string> = {
  auto: 'Automáticamente: al confirmarse el pago en línea, o al entregar un pedido contra entrega',
  manual: 'Solo cuando la emita desde el pedido',
}

/** The default IVA's options in the form's order (the usual rate first). */
export const DEFAULT_VAT_CHOICES = ['19', '5', 'exempt', 'excluded'] as const satisfies readonly VatRate[]

/**
 * "Envíos con transportadora" (a shipping provider configured with ENVIA_*): how the checkout prices
 * shipping (`flat`: the general cost and the zones; `cheapest`: the cheapest live quote; a carrier's
 * code: that carrier's cheapest quote), where parcels are picked up, the package a product without
 * its own measures takes, and whether the carrier's "entregado" completes the order.
 */
export const CARRIER_NAMES = {
  coordinadora: 'Coordinadora',
  servientrega: 'Servientrega',
  interrapidisimo: 'Inter Rapidísimo',
  tcc: 'TCC',
  deprisa: 'Deprisa',
} as const
export type CarrierCode = keyof typeof CARRIER_NAMES

export const CARRIER_QUOTE_CHOICES = [
  'flat',
  'cheapest',
  ...(Object.keys(CARRIER_NAMES) as CarrierCode[]),
] as const
export type CarrierQuoteChoice = (typeof CARRIER_QUOTE_CHOICES)[number]

export const CARRIER_QUOTE_LABELS: Record<CarrierQuoteChoice, string> = {
  flat: 'Costo fijo de envío (y las zonas)',
  cheapest: 'Cotización en vivo: la transportadora más barata',
  ...(Object.fromEntries(
    Object.entries(CARRIER_NAMES).map(([code, name]) => [code, `Cotización en vivo: ${name}`]),
  ) as Record<CarrierCode, string>),
}

export const YES_NO = ['yes', 'no'] as const
export type YesNo = (typeof YES_NO)[number]

export const COMPLETE_ON_DELIVERY_LABELS: Record<YesNo, string> = {
  yes: 'Sí: el pedido pasa a Completado cuando la transportadora lo entrega',
  no: 'No: lo marco Completado yo',
}

export type CarrierSettingValues = {
  carrierQuotes: CarrierQuoteChoice
  /** Street address where the carrier picks parcels up ('' until set). */
  carrierOriginStreet: string
  /** DANE code of the pickup municipality ('' until set). */
  carrierOriginMunicipality: string
  /** 10-digit Colombian phone for the carrier ('' until set). */
  carrierOriginPhone: string
  parcelWeightGrams: number
  parcelLengthCm: number
  parcelWidthCm: number
  parcelHeightCm: number
  completeOnDelivery: YesNo
}

export const CARRIER_SETTING_KEYS = [
  'carrierQuotes',
  'carrierOriginStreet',
  'carrierOriginMunicipality',
  'carrierOriginPhone',
  'parcelWeightGrams',
  'parcelLengthCm',
  'parcelWidthCm',
  'parcelHeightCm',
  'completeOnDelivery',
] as const satisfies readonly (keyof CarrierSettingValues)[]

/** A small box of accessories: 300 g, 20 × 15 × 8 cm; flat shipping cost until the owner chooses. */
export const CARRIER_SETTING_DEFAULTS: CarrierSettingValues = {
  carrierQuotes: 'flat',
  carrierOriginStreet: '',
  carrierOriginMunicipality: '',
  carrierOriginPhone: '',
  parcelWeightGrams: 300,
  parcelLengthCm: 20,
  parcelWidthCm: 15,
  parcelHeightCm: 8,
  completeOnDelivery: 'no',
}

/**
 * "Pagos": which ways to pay the checkout offers (an online provider only once it is configured),
 * and where a transfer or Bre-B payment goes: the shop's Bre-B key (llave) or its account, and
 * how many hours an unpaid transfer order keeps its units.
 */
export type PaymentSettingValues = {
  paymentMercadoPago: YesNo
  paymentWompi: YesNo
  paymentTransfer: YesNo
  /** The shop's Bre-B key: a phone, e-mail, ID number or alphanumeric key ('' until set). */
  transferBrebKey: string
  /** Bank, account type, number and holder, as the buyer needs them ('' until set). */
  transferAccount: string
  transferDeadlineHours: number
}

export const PAYMENT_SETTING_KEYS = [
  'paymentMercadoPago',
  'paymentWompi',
  'paymentTransfer',
  'transferBrebKey',
  'transferAccount',
  'transferDeadlineHours',
] as const satisfies readonly (keyof PaymentSettingValues)[]

/** Online providers on once configured; transfers off until the owner writes where they go. */
export const PAYMENT_SETTING_DEFAULTS: PaymentSettingValues = {
  paymentMercadoPago: 'yes',
  paymentWompi: 'yes',
  paymentTransfer: 'no',
  transferBrebKey: '',
  transferAccount: '',
  transferDeadlineHours: 24,
}

/** An unpaid transfer order keeps its units from 1 hour to 7 days. */
export const TRANSFER_DEADLINE_BOUNDS = { min: 1, max: 168 } as const

export const PAYMENT_METHOD_SETTING_LABELS: Record<YesNo, string> = {
  yes: 'Sí, ofrecerlo en el checkout',
  no: 'No',
}

/** A count as the form writes it (es-CO thousands separator: "10.080"). */
const esCount = (value: number) => value.toLocaleString('es-CO')

/** A whole number of minutes in the largest unit that divides it: "15 minutos", "1 hora", "7 días". */
function minutesText(minutes: number): string {
  const [count, one, many] =
    minutes % (24 * 60) === 0
      ? [minutes / (24 * 60), 'día', 'días']
      : minutes % 60 === 0
        ? [minutes / 60, 'hora', 'horas']
        : [minutes, 'minuto', 'minutos']
  return `${esCount(count)} ${count === 1 ? one : many}`
}

/** Each session limit's bounds and default in minutes, and the unit the form asks it in. */
const SESSION_LIMIT_MINUTES = {
  adminIdleMinutes: { perUnit: 1, unit: 'minutos' },
  adminSessionHours: { perUnit: 60, unit: 'horas' },
} as const satisfies Record<keyof SessionLimitSettings, { perUnit: number; unit: string }>

function sessionLimitTexts(key: keyof SessionLimitSettings) {
  const { min, max } = SESSION_LIMIT_BOUNDS[key]
  const { perUnit, unit } = SESSION_LIMIT_MINUTES[key]
  const fallback = SESSION_LIMIT_DEFAULTS[key]
  return {
    hint: `De ${minutesText(min * perUnit)} a ${minutesText(max * perUnit)} (${esCount(max)}); ${esCount(fallback)} son ${minutesText(fallback * perUnit)}.`,
    message: (label: string) =>
      `${label}: escribe un número entero de ${unit} entre ${esCount(min)} y ${esCount(max)} (${minutesText(max * perUnit)}).`,
  }
}

/** The form's hint under each session limit, from its bounds and default. */
export const SESSION_LIMIT_HINTS = {
  adminIdleMinutes: sessionLimitTexts('adminIdleMinutes').hint,
  adminSessionHours: sessionLimitTexts('adminSessionHours').hint,
} as const satisfies Record<keyof SessionLimitSettings, string>

export type SettingKey = keyof StoreSettings

/** Every setting, in the order of the form and of "Últimos cambios". */
export const SETTING_KEYS = [
  'shippingCost',
  'freeShippingThreshold',
  'whatsappNumber',
  'whatsappText',
  'sellerLegalName',
  'sellerNit',
  'sellerAddress',
  'sellerEmail',
  'deliveryTime',
  ...HOLD_LIMIT_KEYS,
  ...SESSION_LIMIT_KEYS,
  ...INVOICE_SETTING_KEYS,
  ...CARRIER_SETTING_KEYS,
  ...PAYMENT_SETTING_KEYS,
] as const satisfies readonly SettingKey[]

/** The audit rows of banners use this key (a setting's rows use the setting's key). */
export const BANNER_CHANGE_KEY = 'banner'

/**
 * "Envío por zona": the setting key that keeps the shipping zones (one JSON list), and the key of
 * their audit rows (one row per zone added, replaced or removed).
 */
export const SHIPPING_ZONES_KEY = 'shippingZones'

export const SETTING_LABELS: Record<
  SettingKey | typeof BANNER_CHANGE_KEY | typeof SHIPPING_ZONES_KEY,
  string
> = {
  shippingCost: 'Costo de envío',
  freeShippingThreshold: 'Envío gratis desde',
  whatsappNumber: 'Número de WhatsApp',
  whatsappText: 'Mensaje inicial de WhatsApp',
  sellerLegalName: 'Razón social',
  sellerNit: 'NIT',
  sellerAddress: 'Dirección',
  sellerEmail: 'Correo de contacto',
  deliveryTime: 'Tiempo de entrega',
  maxOpenOrders: 'Pedidos sin pagar por teléfono',
  maxOpenUnits: 'Unidades sin pagar por teléfono',
  maxOpenOrdersPerAddress: 'Pedidos sin pagar por conexión',
  maxOpenUnitsPerAddress: 'Unidades sin pagar por conexión',
  adminIdleMinutes: 'Cierre por inactividad (minutos)',
  adminSessionHours: 'Duración máxima de la sesión (horas)',
  invoiceTrigger: 'Cuándo emitir la factura',
  defaultVat: 'IVA por defecto de los productos',
  carrierQuotes: 'Costo de envío en el checkout',
  carrierOriginStreet: 'Dirección de recogida',
  carrierOriginMunicipality: 'Municipio de recogida',
  carrierOriginPhone: 'Teléfono de recogida',
  parcelWeightGrams: 'Peso del paquete por defecto (g)',
  parcelLengthCm: 'Largo del paquete por defecto (cm)',
  parcelWidthCm: 'Ancho del paquete por defecto (cm)',
  parcelHeightCm: 'Alto del paquete por defecto (cm)',
  completeOnDelivery: 'Completar al entregar',
  paymentMercadoPago: 'Mercado Pago',
  paymentWompi: 'Wompi (PSE, Nequi, Bancolombia, tarjetas)',
  paymentTransfer: 'Transferencia / Bre-B',
  transferBrebKey: 'Llave Bre-B',
  transferAccount: 'Cuenta para transferencias',
  transferDeadlineHours: 'Plazo para pagar una transferencia (horas)',
  banner: 'Banner',
  shippingZones: 'Envío por zona',
}

/** Money settings (centavos), shown as COP. */
export const MONEY_SETTINGS: ReadonlySet<string> = new Set<SettingKey>([
  'shippingCost',
  'freeShippingThreshold',
])

/** Settings chosen from a list: how "Últimos cambios" words each stored value. */
export const SETTING_VALUE_LABELS: Partial<Record<SettingKey, Record<string, string>>> = {
  invoiceTrigger: INVOICE_TRIGGER_LABELS,
  defaultVat: VAT_LABELS,
  carrierQuotes: CARRIER_QUOTE_LABELS,
  completeOnDelivery: COMPLETE_ON_DELIVERY_LABELS,
  paymentMercadoPago: PAYMENT_METHOD_SETTING_LABELS,
  paymentWompi: PAYMENT_METHOD_SETTING_LABELS,
  paymentTransfer: PAYMENT_METHOD_SETTING_LABELS,
}

/** The values a setting chosen from a list may take (a stored value outside them is ignored). */
export const SETTING_CHOICES: Partial<Record<SettingKey, readonly string[]>> = {
  invoiceTrigger: INVOICE_TRIGGERS,
  defaultVat: VAT_RATES,
  carrierQuotes: CARRIER_QUOTE_CHOICES,
  completeOnDelivery: YES_NO,
  paymentMercadoPago: YES_NO,
  paymentWompi: YES_NO,
  paymentTransfer: YES_NO,
}

/** The prefilled WhatsApp text until the owner writes another. */
export const DEFAULT_WHATSAPP_TEXT = 'Hola, quisiera más información sobre sus productos.'

/** Whole pesos: up to $ 20.000.000 keeps centavos within the orders' integer columns. */
export const MAX_SETTING_PESOS = 20_000_000

export const SETTINGS_MESSAGES = {
  saved: 'Configuración guardada.',
  unchanged: 'No hubo cambios que guardar.',
  invalid: 'Revisa los campos marcados; no se guardó ningún cambio.',
  unexpected: 'Error: no se pudo guardar la configuración, intenta de nuevo.',
  moneyRequired: (label: string) => `${label}: escribe un valor en pesos (0 si no aplica).`,
  moneyWhole: (label: string) =>
    `${label}: escribe pesos enteros, sin centavos ni letras (por ejemplo 8000 o 8.000).`,
  moneyTooLarge: (label: string) =>
    `${label}: no puede superar $ ${MAX_SETTING_PESOS.toLocaleString('es-CO')}.`,
  phone:
    'El número de WhatsApp debe ser un celular colombiano: 57 y 10 dígitos que empiezan por 3 (por ejemplo 573001234567).',
  whatsappText: 'Escribe el mensaje inicial de WhatsApp.',
  legalName: 'Escribe la razón social o el nombre del vendedor.',
  nit: 'El NIT debe tener solo números, puntos y el dígito de verificación (por ejemplo 901.234.567-8).',
  address: 'Escribe la dirección del vendedor.',
  email: 'Escribe un correo electrónico válido (por ejemplo contacto@mitienda.com).',
  deliveryTime: 'Escribe el tiempo de entrega que se muestra en el pie de página.',
  tooLong: (label: string, max: number) => `${label}: máximo ${max} caracteres.`,
  count: (label: string) =>
    `${label}: escribe un número entero entre 1 y ${MAX_HOLD_LIMIT.toLocaleString('es-CO')}.`,
  idleMinutes: sessionLimitTexts('adminIdleMinutes').message,
  sessionHours: sessionLimitTexts('adminSessionHours').message,
  invoiceTrigger: 'Elige cuándo emitir la factura electrónica.',
  defaultVat: 'Elige el IVA por defecto de los productos entre las opciones de la lista.',
  carrierQuotes: 'Elige cómo se calcula el costo de envío en el checkout entre las opciones de la lista.',
  originMunicipality: 'Elige el municipio de recogida de la lista, o «Sin definir».',
  originPhone:
    'El teléfono de recogida debe ser colombiano de 10 dígitos: un celular que empieza por 3 o un fijo que empieza por 60 (por ejemplo 300 123 4567 o 601 234 5678).',
  parcel: (label: string, max: number) =>
    `${label}: escribe un número entero entre 1 y ${max.toLocaleString('es-CO')}.`,
  completeOnDelivery: 'Elige si el pedido se completa cuando la transportadora lo entrega.',
  paymentMethod: (label: string) => `${label}: elige si se ofrece en el checkout.`,
  transferDeadline: `Plazo para pagar una transferencia: escribe un número entero de horas entre ${TRANSFER_DEADLINE_BOUNDS.min} y ${TRANSFER_DEADLINE_BOUNDS.max} (7 días).`,
  transferDestination:
    'Para recibir transferencias escribe tu llave Bre-B o los datos de tu cuenta (banco, tipo, número y titular).',
  idleOverSession: 'El cierre por inactividad no puede ser más largo que la duración máxima de la sesión.',
  conflict: (labels: string[]) =>
    `Otro administrador cambió ${labels.join(', ')} mientras editabas; recarga la página para ver los valores actuales. No se guardó ningún cambio.`,
  stale: 'El formulario no es válido o está desactualizado; recarga la página. No se guardó ningún cambio.',
} as const

export const BANNER_MESSAGES = {
  created: 'Banner agregado.',
  updated: 'Banner actualizado.',
  moved: 'Orden de los banners actualizado.',
  deleted: 'Banner eliminado.',
  notFound: 'Ese banner ya no existe. Recarga la página.',
  oneFile: 'Sube un solo archivo en cada campo de imagen o video.',
  imageRequired: 'Sube una imagen para pantallas anchas o un video.',
  mobileNotImage: 'La imagen para celulares (menos de 700 px) debe ser una imagen, no un video.',
  mobileWithVideo: 'Un banner de video no lleva imagen para celulares: quita esa imagen.',
  altRequired: 'Escribe el texto alternativo del banner (lo leen los lectores de pantalla).',
  link: 'El enlace debe ser una ruta de la tienda (por ejemplo /categoria/…) o una dirección https://.',
  position: 'La posición debe ser un número entero desde 1.',
  deleteConfirm: '¿Seguro que quieres eliminar este banner?',
  badRequest: 'La solicitud no es válida. Recarga la página e inténtalo de nuevo.',
  unexpected: 'Error: no se pudo guardar el banner, intenta de nuevo.',
} as const

/** At most this many shipping zones: a shop ships to a few places with rules of their own. */
export const MAX_SHIPPING_ZONES = 200

export const SHIPPING_ZONE_MESSAGES = {
  saved: 'Zona de envío guardada.',
  unchanged: 'Esa zona ya tenía esas reglas; no hubo cambios que guardar.',
  removed: 'Zona de envío quitada.',
  notFound: 'Esa zona ya no está en la lista. Recarga la página.',
  code: 'Elige un departamento o municipio de la lista.',
  tooMany: `Puedes tener hasta ${MAX_SHIPPING_ZONES} zonas de envío; quita alguna antes de agregar otra.`,
  unexpected: 'Error: no se pudo guardar la zona de envío, intenta de nuevo.',
} as const

export type SettingsFieldErrors = Partial<Record<SettingKey, string>>

/** The form's fields (names are the setting keys), as typed. */
export type SettingsFormValues = Record<SettingKey, string>

/** "8000", "8.000", "$ 8.000" → 8000 whole pesos; anything else is refused. */
function wholePesos(label: string) {
  return z.string().transform((raw, ctx) => {
    const text = raw.replace(/\s+/g, '').replace(/^\$/, '')
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: SETTINGS_MESSAGES.moneyRequired(label) })
      return z.NEVER
    }
    if (!/^(\d+|\d{1,3}(\.\d{3})+)$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: SETTINGS_MESSAGES.moneyWhole(label) })
      return z.NEVER
    }
    const pesos = Number(text.replaceAll('.', ''))
    if (pesos > MAX_SETTING_PESOS) {
      ctx.addIssue({ code: 'custom', message: SETTINGS_MESSAGES.moneyTooLarge(label) })
      return z.NEVER
    }
    return pesos * 100
  })
}

/**
 * A Colombian phone for the carrier, as its 10 digits: a mobile (3xx xxx xxxx) or a landline
 * (60x xxx xxxx). Spaces, dashes, dots, brackets and the +57 / 57 prefix are dropped:
 * "+57 300-123-4567" and "(601) 234 5678" become 3001234567 and 6012345678. Null for anything else.
 */
export function normalizeCarrierPhone(raw: string): string | null {
  const digits = raw.replace(/[\s\-().+]/g, '')
  const national = /^57\d{10}$/.test(digits) ? digits.slice(2) : digits
  return /^(3\d{9}|60\d{8})$/.test(national) ? national : null
}

/** Whether `code` has the shape of a DANE municipality code (five digits); existence is the server's. */
export const isMunicipalityCodeShape = (code: string) => /^\d{5}$/.test(code)

/** A hold limit as typed: a whole number from 1 to MAX_HOLD_LIMIT. */
function count(label: string) {
  return z.string().transform((raw, ctx) => {
    const text = raw.trim()
    const value = Number(text)
    if (!/^\d{1,9}$/.test(text) || value < 1 || value > MAX_HOLD_LIMIT) {
      ctx.addIssue({ code: 'custom', message: SETTINGS_MESSAGES.count(label) })
      return z.NEVER
    }
    return value
  })
}

/** A session limit as typed: a whole number within its bounds. */
function within(bounds: { min: number; max: number }, message: string) {
  return z.string().transform((raw, ctx) => {
    // "10.080" is ten thousand and eighty, as the hints write it; "1.5" is no whole number.
    const text = raw.trim()
    const value = Number(text.replaceAll('.', ''))
    if (!/^(\d{1,6}|\d{1,3}\.\d{3})$/.test(text) || value < bounds.min || value > bounds.max) {
      ctx.addIssue({ code: 'custom', message })
      return z.NEVER
    }
    return value
  })
}

/** A default package's weight or side as typed: a whole number within PARCEL_BOUNDS. */
const parcelSize = (key: keyof CarrierSettingValues, bounds: { min: number; max: number }) =>
  within(bounds, SETTINGS_MESSAGES.parcel(SETTING_LABELS[key], bounds.max))

const text = (message: string, label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, { message })
    .max(max, { message: SETTINGS_MESSAGES.tooLong(label, max) })

/**
 * One zone of "Envío por zona" as posted: `code` the DANE code of a department ("05") or a
 * municipality ("05001"), `cost` whole pesos (empty keeps the general shipping cost), and whether
 * cash on delivery is taken there (the checkbox).
 */
export type ShippingZoneFormValues = { code: string; cost: string; cashOnDelivery: boolean }

export type ShippingZoneFieldErrors = Partial<Record<'code' | 'cost', string>>

/** The zone form's fields as posted (a missing field reads as empty, an unticked box as false). */
export function shippingZoneFormValues(form: FormData): ShippingZoneFormValues {
  const text = (name: string) => formText(form, name)
  return {
    code: text('code').trim(),
    cost: text('cost'),
    cashOnDelivery: form.get('cashOnDelivery') === 'on',
  }
}

/**
 * Checks a posted zone: the code must be one `isZoneCode` knows (a department or a municipality of
 * DANE's list, which only the server holds), the cost empty or whole pesos within the bounds of
 * "Costo de envío" (the same parser).
 */
export function checkShippingZoneForm(
  values: ShippingZoneFormValues,
  isZoneCode: (code: string) => boolean,
): { ok: true; zone: ShippingZone } | { ok: false; errors: ShippingZoneFieldErrors } {
  const errors: ShippingZoneFieldErrors = {}
  if (!/^(\d{2}|\d{5})$/.test(values.code) || !isZoneCode(values.code))
    errors.code = SHIPPING_ZONE_MESSAGES.code
  let cost: number | null = null
  if (values.cost.trim() !== '') {
    const parsed = wholePesos(SETTING_LABELS.shippingCost).safeParse(values.cost)
    if (parsed.success) cost = parsed.data
    else errors.cost = parsed.error.issues[0]!.message
  }
  if (errors.code || errors.cost) return { ok: false, errors }
  return { ok: true, zone: { code: values.code, cost, cashOnDelivery: values.cashOnDelivery } }
}

export const SettingsFormSchema = z
  .object({
    shippingCost: wholePesos(SETTING_LABELS.shippingCost),
    freeShippingThreshold: wholePesos(SETTING_LABELS.freeShippingThreshold),
    whatsappNumber: z.string().transform((raw, ctx) => {
      const number = normalizeWhatsappNumber(raw)
      if (number === null) {
        ctx.addIssue({ code: 'custom', message: SETTINGS_MESSAGES.phone })
        return z.NEVER
      }
      return number
    }),
    whatsappText: text(SETTINGS_MESSAGES.whatsappText, SETTING_LABELS.whatsappText, 300),
    sellerLegalName: text(SETTINGS_MESSAGES.legalName, SETTING_LABELS.sellerLegalName, 120),
    sellerNit: z
      .string()
      .trim()
      .regex(/^\d[\d.]{3,14}(-\d)?$/, { message: SETTINGS_MESSAGES.nit }),
    sellerAddress: text(SETTINGS_MESSAGES.address, SETTING_LABELS.sellerAddress, 200),
    sellerEmail: z
      .string()
      .trim()
      .pipe(z.email({ message: SETTINGS_MESSAGES.email }).max(254, { message: SETTINGS_MESSAGES.email })),
    deliveryTime: text(SETTINGS_MESSAGES.deliveryTime, SETTING_LABELS.deliveryTime, 200),
    maxOpenOrders: count(SETTING_LABELS.maxOpenOrders),
    maxOpenUnits: count(SETTING_LABELS.maxOpenUnits),
    maxOpenOrdersPerAddress: count(SETTING_LABELS.maxOpenOrdersPerAddress),
    maxOpenUnitsPerAddress: count(SETTING_LABELS.maxOpenUnitsPerAddress),
    adminIdleMinutes: within(
      SESSION_LIMIT_BOUNDS.adminIdleMinutes,
      SETTINGS_MESSAGES.idleMinutes(SETTING_LABELS.adminIdleMinutes),
    ),
    adminSessionHours: within(
      SESSION_LIMIT_BOUNDS.adminSessionHours,
      SETTINGS_MESSAGES.sessionHours(SETTING_LABELS.adminSessionHours),
    ),
    invoiceTrigger: z.enum(INVOICE_TRIGGERS, { message: SETTINGS_MESSAGES.invoiceTrigger }),
    defaultVat: z.enum(VAT_RATES, { message: SETTINGS_MESSAGES.defaultVat }),
    carrierQuotes: z.enum(CARRIER_QUOTE_CHOICES, { message: SETTINGS_MESSAGES.carrierQuotes }),
    carrierOriginStreet: z
      .string()
      .trim()
      .max(200, { message: SETTINGS_MESSAGES.tooLong(SETTING_LABELS.carrierOriginStreet, 200) }),
    // '' (not set) or five digits; whether DANE has that municipality is checked on the server.
    carrierOriginMunicipality: z
      .string()
      .trim()
      .refine((code) => code === '' || isMunicipalityCodeShape(code), {
        message: SETTINGS_MESSAGES.originMunicipality,
      }),
    carrierOriginPhone: z.string().transform((raw, ctx) => {
      if (raw.trim() === '') return ''
      const phone = normalizeCarrierPhone(raw)
      if (phone === null) {
        ctx.addIssue({ code: 'custom', message: SETTINGS_MESSAGES.originPhone })
        return z.NEVER
      }
      return phone
    }),
    parcelWeightGrams: parcelSize('parcelWeightGrams', PARCEL_BOUNDS.weightGrams),
    parcelLengthCm: parcelSize('parcelLengthCm', PARCEL_BOUNDS.centimetres),
    parcelWidthCm: parcelSize('parcelWidthCm', PARCEL_BOUNDS.centimetres),
    parcelHeightCm: parcelSize('parcelHeightCm', PARCEL_BOUNDS.centimetres),
    completeOnDelivery: z.enum(YES_NO, { message: SETTINGS_MESSAGES.completeOnDelivery }),
    paymentMercadoPago: z.enum(YES_NO, {
      message: SETTINGS_MESSAGES.paymentMethod(SETTING_LABELS.paymentMercadoPago),
    }),
    paymentWompi: z.enum(YES_NO, { message: SETTINGS_MESSAGES.paymentMethod(SETTING_LABELS.paymentWompi) }),
    paymentTransfer: z.enum(YES_NO, {
      message: SETTINGS_MESSAGES.paymentMethod(SETTING_LABELS.paymentTransfer),
    }),
    transferBrebKey: z
      .string()
      .trim()
      .max(100, { message: SETTINGS_MESSAGES.tooLong(SETTING_LABELS.transferBrebKey, 100) }),
    transferAccount: z
      .string()
      .trim()
      .max(300, { message: SETTINGS_MESSAGES.tooLong(SETTING_LABELS.transferAccount, 300) }),
    transferDeadlineHours: within(TRANSFER_DEADLINE_BOUNDS, SETTINGS_MESSAGES.transferDeadline),
  })
  .superRefine((settings, ctx) => {
    // A buyer told to transfer must be told where to.
    if (settings.paymentTransfer === 'yes' && !settings.transferBrebKey && !settings.transferAccount) {
      ctx.addIssue({
        code: 'custom',
        path: ['transferBrebKey'],
        message: SETTINGS_MESSAGES.transferDestination,
      })
    }
    // A longer idle limit would never apply: the session would end at its maximum first.
    if (settings.adminIdleMinutes > settings.adminSessionHours * 60) {
      ctx.addIssue({ code: 'custom', path: ['adminIdleMinutes'], message: SETTINGS_MESSAGES.idleOverSession })
    }
  }) satisfies z.ZodType<StoreSettings, Record<SettingKey, string>>

/** The typed values of a posted settings form (a missing field reads as empty). */
export function settingsFormValues(form: FormData): SettingsFormValues {
  return formTexts(form, SETTING_KEYS)
}

/** The default package's keys: whole numbers, written as text in the form. */
export const PARCEL_SETTING_KEYS = [
  'parcelWeightGrams',
  'parcelLengthCm',
  'parcelWidthCm',
  'parcelHeightCm',
] as const satisfies readonly (keyof CarrierSettingValues)[]

type CountKey =
  | keyof HoldLimits
  | keyof SessionLimitSettings
  | (typeof PARCEL_SETTING_KEYS)[number]
  | 'transferDeadlineHours'

/** The form's fields as shown for saved settings (money in whole pesos, counts as text). */
export function settingsAsFormValues(settings: StoreSettings): SettingsFormValues {
  return {
    ...settings,
    shippingCost: String(Math.round(settings.shippingCost / 100)),
    freeShippingThreshold: String(Math.round(settings.freeShippingThreshold / 100)),
    ...(Object.fromEntries(
      [
        ...HOLD_LIMIT_KEYS,
        ...SESSION_LIMIT_KEYS,
        ...PARCEL_SETTING_KEYS,
        'transferDeadlineHours' as const,
      ].map((key) => [key, String(settings[key])]),
    ) as Record<CountKey, string>),
  }
}

/**
 * The settings the form was loaded with, posted back in its hidden `loaded` field (JSON): what the
 * save compares the typed values to, so only fields the admin changed are written. Null when absent
 * or not of the settings' shape.
 */
export function loadedSettings(raw: unknown): StoreSettings | null {
  const value = postedJson(raw)
  if (value === undefined) return null
  const money = z.number().int().min(0)
  const parsed = z
    .object({
      shippingCost: money,
      freeShippingThreshold: money,
      whatsappNumber: z.string(),
      whatsappText: z.string(),
      sellerLegalName: z.string(),
      sellerNit: z.string(),
      sellerAddress: z.string(),
      sellerEmail: z.string(),
      deliveryTime: z.string(),
      maxOpenOrders: z.number().int().min(1),
      maxOpenUnits: z.number().int().min(1),
      maxOpenOrdersPerAddress: z.number().int().min(1),
      maxOpenUnitsPerAddress: z.number().int().min(1),
      adminIdleMinutes: z.number().int().min(1),
      adminSessionHours: z.number().int().min(1),
      invoiceTrigger: z.enum(INVOICE_TRIGGERS),
      defaultVat: z.enum(VAT_RATES),
      carrierQuotes: z.enum(CARRIER_QUOTE_CHOICES),
      carrierOriginStreet: z.string(),
      carrierOriginMunicipality: z.string(),
      carrierOriginPhone: z.string(),
      parcelWeightGrams: z.number().int().min(1),
      parcelLengthCm: z.number().int().min(1),
      parcelWidthCm: z.number().int().min(1),
      parcelHeightCm: z.number().int().min(1),
      completeOnDelivery: z.enum(YES_NO),
      paymentMercadoPago: z.enum(YES_NO),
      paymentWompi: z.enum(YES_NO),
      paymentTransfer: z.enum(YES_NO),
      transferBrebKey: z.string(),
      transferAccount: z.string(),
      transferDeadlineHours: z.number().int().min(1),
    })
    .strict()
    .safeParse(value)
  return parsed.success ? (parsed.data satisfies StoreSettings) : null
}

export type SettingsCheck = { ok: true; settings: StoreSettings } | { ok: false; errors: SettingsFieldErrors }

/**
 * Checks a posted settings form. `isMunicipalityCode` says whether a five-digit code is a
 * municipality of DANE's list (which only the server holds), for the carrier's pickup municipality.
 */
export function checkSettingsForm(
  values: SettingsFormValues,
  isMunicipalityCode: (code: string) => boolean,
): SettingsCheck {
  const parsed = SettingsFormSchema.safeParse(values)
  const errors: SettingsFieldErrors = {}
  const municipality = (values.carrierOriginMunicipality ?? '').trim()
  if (isMunicipalityCodeShape(municipality) && !isMunicipalityCode(municipality))
    errors.carrierOriginMunicipality = SETTINGS_MESSAGES.originMunicipality
  if (parsed.success && !errors.carrierOriginMunicipality) return { ok: true, settings: parsed.data }
  for (const issue of parsed.error?.issues ?? []) {
    const key = issue.path[0] as SettingKey
    errors[key] ??= issue.message
  }
  return { ok: false, errors }
}

/** A banner's link: a path of this shop ("/categoria/…", not "//host") or an https:// address. */
export function normalizeBannerLink(raw: string): { ok: true; link: string | null } | { ok: false } {
  const link = raw.trim()
  if (link === '') return { ok: true, link: null }
  if (link.length > 500 || /\s/.test(link)) return { ok: false }
  if (link.startsWith('/')) {
    return link.startsWith('//') || link.startsWith('/\\') ? { ok: false } : { ok: true, link }
  }
  try {
    const url = new URL(link)
    return url.protocol === 'https:' && url.hostname !== '' ? { ok: true, link: url.href } : { ok: false }
  } catch {
    return { ok: false }
  }
}

export const BannerFieldsSchema = z.object({
  alt: z
    .string({ message: BANNER_MESSAGES.altRequired })
    .trim()
    .min(1, { message: BANNER_MESSAGES.altRequired })
    .max(160, { message: SETTINGS_MESSAGES.tooLong('Texto alternativo', 160) }),
  link: z.string().default(''),
  active: z.boolean(),
})

export type BannerFields = { alt: string; link: string | null; active: boolean }

/** Where "Mover" sends a banner: one place up or down, or a position counted from 1. */
export type BannerTarget = 'arriba' | 'abajo' | number

/** The posted "to" of a move ("arriba", "abajo" or a whole number from 1); null when it is neither. */
export function bannerTarget(raw: string): BannerTarget | null {
  const value = raw.trim()
  if (value === 'arriba' || value === 'abajo') return value
  return /^\d{1,6}$/.test(value) && Number(value) >= 1 ? Number(value) : null
}

const bannerId = z.coerce.number().int().positive()

/**
 * What "Configuraciones" posts: the settings form, one of the banner actions or a shipping zone
 * saved or removed (`intent`).
 */
export const SettingsActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('guardar') }),
  z.object({ intent: z.literal('banner-crear') }),
  z.object({ intent: z.literal('banner-editar'), id: bannerId }),
  z.object({ intent: z.literal('banner-mover'), id: bannerId, to: z.string() }),
  z.object({ intent: z.literal('banner-eliminar'), id: bannerId }),
  z.object({ intent: z.literal('zona-guardar') }),
  z.object({ intent: z.literal('zona-quitar'), code: z.string().max(10) }),
])

export type SettingsIntent = z.infer<typeof SettingsActionSchema>['intent']

// ——— "SEO" (/admin/seo): sitemap.xml, robots.txt and Google Search Console ———

/** The SEO settings, each kept under its own key in `settings` (and audited under it). */
export type SeoSettings = {
  /** Whether sitemap.xml lists the products shown to the public, and the categories. */
  seoSitemapProducts: boolean
  seoSitemapCategories: boolean
  /** Lines added to robots.txt after the shop's own (checked by `robotsLineProblem`). */
  seoRobotsExtra: string
  /** The `content` of Google Search Console's `<meta name="google-site-verification">`; '' none. */
  seoGoogleVerification: string
}
export type SeoSettingKey = keyof SeoSettings

export const SEO_SETTING_KEYS = [
  'seoSitemapProducts',
  'seoSitemapCategories',
  'seoRobotsExtra',
  'seoGoogleVerification',
] as const satisfies readonly SeoSettingKey[]

export const SEO_SETTING_DEFAULTS: SeoSettings = {
  seoSitemapProducts: true,
  seoSitemapCategories: true,
  seoRobotsExtra: '',
  seoGoogleVerification: '',
}

export const SEO_SETTING_LABELS: Record<SeoSettingKey, string> = {
  seoSitemapProducts: 'Productos en sitemap.xml',
  seoSitemapCategories: 'Categorías en sitemap.xml',
  seoRobotsExtra: 'Líneas adicionales de robots.txt',
  seoGoogleVerification: 'Verificación de Google Search Console',
}

/** robots.txt lines the owner may add, and how long the addition may be. */
export const ROBOTS_DIRECTIVES = ['User-agent', 'Allow', 'Disallow', 'Sitemap', 'Crawl-delay'] as const
export const ROBOTS_EXTRA_LIMITS = { lines: 50, lineLength: 200 } as const

export const SEO_SETTINGS_MESSAGES = {
  saved: 'Configuración SEO guardada.',
  unchanged: 'No hubo cambios que guardar.',
  invalid: 'Revisa los campos marcados; no se guardó ningún cambio.',
  unexpected: 'Error: no se pudo guardar la configuración SEO, intenta de nuevo.',
  robotsTooMany: `robots.txt: máximo ${ROBOTS_EXTRA_LIMITS.lines} líneas adicionales.`,
  robotsLine: (line: number, problem: string) => `robots.txt, línea ${line}: ${problem}`,
  robotsTooLong: `la línea tiene más de ${ROBOTS_EXTRA_LIMITS.lineLength} caracteres.`,
  robotsUnknown: `escribe «Directiva: valor» con una de ${ROBOTS_DIRECTIVES.join(', ')}, o un comentario que empiece por #.`,
  robotsPath: 'la ruta de Allow o Disallow debe empezar por / o * (o quedar vacía).',
  robotsSitemap: 'Sitemap debe ser una dirección completa (https://…).',
  robotsAgent: 'escribe el nombre del robot después de User-agent: (o * para todos).',
  robotsDelay: 'Crawl-delay debe ser un número de segundos entre 0 y 60.',
  verification:
    'El código de verificación de Google debe ser el valor de content de la etiqueta que da Search Console (letras, números, - y _), o la etiqueta completa.',
} as const

/** A robots.txt line's problem in Spanish, or null when it may go in. */
export function robotsLineProblem(line: string): string | null {
  if (line.length > ROBOTS_EXTRA_LIMITS.lineLength) return SEO_SETTINGS_MESSAGES.robotsTooLong
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(line)) return SEO_SETTINGS_MESSAGES.robotsUnknown
  if (line === '' || line.startsWith('#')) return null
  const match = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line)
  const directive = ROBOTS_DIRECTIVES.find((name) => name.toLowerCase() === match?.[1]?.toLowerCase())
  if (!match || !directive) return SEO_SETTINGS_MESSAGES.robotsUnknown
  const value = match[2]!.trim()
  switch (directive) {
    case 'Allow':
    case 'Disallow':
      return value === '' || /^[/*]\S*$/.test(value) ? null : SEO_SETTINGS_MESSAGES.robotsPath
    case 'Sitemap':
      return /^https?:\/\/[^\s/]+\.[^\s/]+(\/\S*)?$/i.test(value) ? null : SEO_SETTINGS_MESSAGES.robotsSitemap
    case 'User-agent':
      return /^[A-Za-z0-9*._-]+$/.test(value) ? null : SEO_SETTINGS_MESSAGES.robotsAgent
    case 'Crawl-delay':
      return /^\d{1,2}(\.\d{1,2})?$/.test(value) && Number(value) <= 60
        ? null
        : SEO_SETTINGS_MESSAGES.robotsDelay
  }
}

/** Google's token alone: what Search Console puts in the tag's `content`. */
const VERIFICATION_TOKEN = /^[A-Za-z0-9_-]{10,100}$/

/** The token from what the owner pasted: the token itself or the whole `<meta …>` tag. */
export function verificationTokenOf(text: string): string | null {
  const trimmed = text.trim()
  if (trimmed === '') return ''
  const fromTag = /^<meta\s[^>]*content\s*=\s*["']([^"']*)["'][^>]*>$/i.exec(trimmed)
  if (fromTag && !/name\s*=\s*["']google-site-verification["']/i.test(trimmed)) return null
  const token = (fromTag?.[1] ?? trimmed).trim()
  return VERIFICATION_TOKEN.test(token) ? token : null
}

/** The SEO form's fields as posted (checkboxes: 'on' or absent). */
export type SeoSettingsFormValues = Record<SeoSettingKey, string>

/** Checks the SEO form: the settings to save, or one Spanish message per field refused. */
export function checkSeoSettingsForm(
  values: Partial<SeoSettingsFormValues>,
): { ok: true; settings: SeoSettings } | { ok: false; errors: Partial<Record<SeoSettingKey, string>> } {
  const errors: Partial<Record<SeoSettingKey, string>> = {}
  const lines = (values.seoRobotsExtra ?? '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trim())
  while (lines.length && lines.at(-1) === '') lines.pop()
  while (lines.length && lines[0] === '') lines.shift()
  if (lines.length > ROBOTS_EXTRA_LIMITS.lines) errors.seoRobotsExtra = SEO_SETTINGS_MESSAGES.robotsTooMany
  else {
    const found = lines.map(robotsLineProblem).findIndex((problem) => problem !== null)
    if (found >= 0)
      errors.seoRobotsExtra = SEO_SETTINGS_MESSAGES.robotsLine(found + 1, robotsLineProblem(lines[found]!)!)
  }
  const token = verificationTokenOf(values.seoGoogleVerification ?? '')
  if (token === null) errors.seoGoogleVerification = SEO_SETTINGS_MESSAGES.verification
  if (Object.keys(errors).length) return { ok: false, errors }
  return {
    ok: true,
    settings: {
      seoSitemapProducts: values.seoSitemapProducts === 'on',
      seoSitemapCategories: values.seoSitemapCategories === 'on',
      seoRobotsExtra: lines.join('\n'),
      seoGoogleVerification: token ?? '',
    },
  }
}
