/**
 * "Mensajes y Notificaciones" (issue 27): the business numbers told of each new order, the WhatsApp
 * templates of that notice and of the messages to the buyer on the order's events, their Spanish
 * texts and how a posted form is checked. Browser-safe: the page imports it.
 */

import { normalizeWhatsappNumber } from '#app/utils/whatsapp.ts'
import { formTexts, postedJson } from '#app/utils/form-text.ts'

/** The order's events the buyer may be told of, in the order they happen. */
export const BUYER_EVENTS = ['confirmed', 'shipped', 'completed', 'cancelled'] as const
export type BuyerEvent = (typeof BUYER_EVENTS)[number]

export function isBuyerEvent(value: unknown): value is BuyerEvent {
  return typeof value === 'string' && (BUYER_EVENTS as readonly string[]).includes(value)
}

export const BUYER_EVENT_LABELS: Record<BuyerEvent, string> = {
  confirmed: 'Pedido confirmado',
  shipped: 'Pedido enviado',
  completed: 'Pedido entregado',
  cancelled: 'Pedido cancelado',
}

/** When each message goes out, as the page says it. */
export const BUYER_EVENT_WHEN: Record<BuyerEvent, string> = {
  confirmed: 'Al confirmar un pedido contra entrega en Gestión de pedidos.',
  shipped: 'Al marcar el pedido como enviado, a mano o al generar la guía.',
  completed: 'Al marcar el pedido como Completado (entregado).',
  cancelled: 'Al cancelar el pedido, a mano, por vencimiento o por una solicitud aceptada.',
}

/** What each template's body receives, in order ({{1}}, {{2}}…): the page documents them. */
export const BUYER_EVENT_PARAMETERS: Record<BuyerEvent, readonly string[]> = {
  confirmed: ['nombre del cliente', 'número de pedido', 'enlace para seguir el pedido'],
  shipped: [
    'nombre del cliente',
    'número de pedido',
    'transportadora ("por confirmar" si no la escribiste)',
    'número de guía ("por confirmar" si no la escribiste)',
    'enlace de seguimiento (el de la transportadora o, sin él, el del pedido)',
  ],
  completed: ['nombre del cliente', 'número de pedido'],
  cancelled: ['nombre del cliente', 'número de pedido'],
}

/** The new-order notice's parameters (app/modules/order/new-order-notice.server.ts). */
export const NEW_ORDER_PARAMETERS: readonly string[] = ['nombre del cliente', 'teléfono del cliente']

/** The templates' names until the owner saves others (each must exist, approved, in WhatsApp Manager). */
export const DEFAULT_NEW_ORDER_TEMPLATE = 'nuevo_pedido'
export const DEFAULT_BUYER_TEMPLATES: Record<BuyerEvent, string> = {
  confirmed: 'pedido_confirmado',
  shipped: 'pedido_enviado',
  completed: 'pedido_entregado',
  cancelled: 'pedido_cancelado',
}
export const DEFAULT_TEMPLATE_LANGUAGE = 'es'

/** At most this many business numbers get the new-order notice. */
export const MAX_NOTIFY_NUMBERS = 5
export const MAX_TEMPLATE_NAME = 512

type BuyerSettings = { [E in BuyerEvent as `${E}On`]: boolean } & {
  [E in BuyerEvent as `${E}Template`]: string
} & { [E in BuyerEvent as `${E}Language`]: string }

/** The page's settings as the shop uses them. */
export type MessageSettings = {
  /** Colombian mobiles with 57, as WhatsApp wants them (573001234567). */
  notifyNumbers: string[]
  newOrderTemplate: string
  newOrderLanguage: string
} & BuyerSettings

export type MessageSettingKey = keyof MessageSettings

export const buyerKeys = (event: BuyerEvent) =>
  ({
    on: `${event}On`,
    template: `${event}Template`,
    language: `${event}Language`,
  }) as const

export const MESSAGE_SETTING_KEYS: readonly MessageSettingKey[] = [
  'notifyNumbers',
  'newOrderTemplate',
  'newOrderLanguage',
  ...BUYER_EVENTS.flatMap((event) => Object.values(buyerKeys(event))),
]

/** Kept in the shop's settings table under these keys ("messages.notifyNumbers"…). */
export const MESSAGE_KEY_PREFIX = 'messages.'
export const storedKeyOf = (key: MessageSettingKey) => `${MESSAGE_KEY_PREFIX}${key}`

export const MESSAGE_SETTING_LABELS: Record<MessageSettingKey, string> = {
  notifyNumbers: 'Números que reciben el aviso de pedido nuevo',
  newOrderTemplate: 'Plantilla del aviso de pedido nuevo',
  newOrderLanguage: 'Idioma de la plantilla del aviso',
  ...(Object.fromEntries(
    BUYER_EVENTS.flatMap((event) => [
      [`${event}On`, `${BUYER_EVENT_LABELS[event]}: enviar`],
      [`${event}Template`, `${BUYER_EVENT_LABELS[event]}: plantilla`],
      [`${event}Language`, `${BUYER_EVENT_LABELS[event]}: idioma`],
    ]),
  ) as Record<keyof BuyerSettings, string>),
}

/** The settings before the owner saves any: `notifyNumbers` come from WHATSAPP_NOTIFY_NUMBERS. */
export function messageDefaults(notifyNumbers: readonly string[]): MessageSettings {
  return {
    notifyNumbers: [...notifyNumbers],
    newOrderTemplate: DEFAULT_NEW_ORDER_TEMPLATE,
    newOrderLanguage: DEFAULT_TEMPLATE_LANGUAGE,
    ...(Object.fromEntries(
      BUYER_EVENTS.flatMap((event) => [
        [`${event}On`, false],
        [`${event}Template`, DEFAULT_BUYER_TEMPLATES[event]],
        [`${event}Language`, DEFAULT_TEMPLATE_LANGUAGE],
      ]),
    ) as BuyerSettings),
  }
}

export const MESSAGES_TEXTS = {
  saved: 'Mensajes guardados.',
  unchanged: 'No hubo cambios que guardar.',
  invalid: 'Revisa los campos marcados; no se guardó ningún cambio.',
  unexpected: 'Error: no se pudieron guardar los mensajes, intenta de nuevo.',
  badRequest: 'La solicitud no es válida. Recarga la página e intenta de nuevo.',
  stale: 'La página estaba desactualizada. Recárgala e intenta de nuevo.',
  conflict: (labels: string[]) =>
    `Alguien más cambió ${labels.join(', ')} mientras editabas. Recarga la página para ver los valores actuales; no se guardó ningún cambio.`,
  number: (typed: string) =>
    `"${typed}" no es un celular colombiano: 10 dígitos que empiezan por 3, con o sin 57 (por ejemplo 300 123 4567).`,
  tooManyNumbers: `Máximo ${MAX_NOTIFY_NUMBERS} números.`,
  template:
    'Escribe el nombre de la plantilla como está en WhatsApp Manager: minúsculas, números y guion bajo (por ejemplo pedido_enviado).',
  language: 'Escribe el código de idioma de la plantilla: es, es_CO, es_MX, en_US…',
  testUnexpected: 'Error: no se pudo enviar la prueba, intenta de nuevo.',
  testNoToken:
    'No se envió nada: WhatsApp no está configurado en el servidor (faltan WHATSAPP_TOKEN y WHATSAPP_PHONE_NUMBER_ID). Mientras tanto, cada aviso queda en el historial del pedido para enviarlo a mano.',
  testNoNumbers: 'No se envió nada: no hay números guardados para el aviso de pedido nuevo.',
  testSent: (numbers: string[]) => `Prueba enviada a ${numbers.join(', ')}. Revisa que haya llegado.`,
  testFailed: (failures: string[]) => `La prueba no se pudo enviar: ${failures.join(' ')}`,
} as const

/** The form as posted: text as typed, "on" for a ticked box. */
export type MessageFormValues = Record<MessageSettingKey, string>
export type MessageFieldErrors = Partial<Record<MessageSettingKey, string>>

export function messageFormValues(form: FormData): MessageFormValues {
  return formTexts(form, MESSAGE_SETTING_KEYS)
}

/** The settings as the form shows them: numbers one per line, boxes "on" or empty. */
export function messagesAsFormValues(settings: MessageSettings): MessageFormValues {
  return Object.fromEntries(
    MESSAGE_SETTING_KEYS.map((key) => {
      const value = settings[key]
      const shown = Array.isArray(value)
        ? value.join('\n')
        : typeof value === 'boolean'
          ? value
            ? 'on'
            : ''
          : value
      return [key, shown]
    }),
  ) as MessageFormValues
}

const TEMPLATE_NAME = /^[a-z0-9_]+$/
const LANGUAGE_CODE = /^[a-z]{2,3}(_[A-Z]{2})?$/

export function isTemplateName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_TEMPLATE_NAME && TEMPLATE_NAME.test(value)
}

export function isLanguageCode(value: unknown): value is string {
  return typeof value === 'string' && LANGUAGE_CODE.test(value)
}

/** Every field checked: the settings to save, or one Spanish message per wrong field. */
export function checkMessageForm(
  values: MessageFormValues,
): { ok: true; settings: MessageSettings } | { ok: false; errors: MessageFieldErrors } {
  const errors: MessageFieldErrors = {}
  const typed = values.notifyNumbers
    .split(/[,;\n]+/)
    .map((entry) => entry.trim())
    .filter(Boolean)
  const numbers: string[] = []
  for (const entry of typed) {
    const number = normalizeWhatsappNumber(entry)
    if (!number) {
      errors.notifyNumbers ??= MESSAGES_TEXTS.number(entry.slice(0, 40))
      continue
    }
    if (!numbers.includes(number)) numbers.push(number)
  }
  if (!errors.notifyNumbers && numbers.length > MAX_NOTIFY_NUMBERS)
    errors.notifyNumbers = MESSAGES_TEXTS.tooManyNumbers
  const template = (key: MessageSettingKey) => {
    const value = values[key].trim()
    if (!isTemplateName(value)) errors[key] = MESSAGES_TEXTS.template
    return value
  }
  const language = (key: MessageSettingKey) => {
    const value = values[key].trim()
    if (!isLanguageCode(value)) errors[key] = MESSAGES_TEXTS.language
    return value
  }
  const settings = {
    notifyNumbers: numbers,
    newOrderTemplate: template('newOrderTemplate'),
    newOrderLanguage: language('newOrderLanguage'),
  } as Record<string, unknown>
  for (const event of BUYER_EVENTS) {
    const keys = buyerKeys(event)
    settings[keys.on] = values[keys.on] === 'on'
    settings[keys.template] = template(keys.template)
    settings[keys.language] = language(keys.language)
  }
  if (Object.keys(errors).length) return { ok: false, errors }
  return { ok: true, settings: settings as MessageSettings }
}

/** Whether `value` is a setting's stored value of the right type (a row written by hand may hold anything). */
export function isStoredValue(key: MessageSettingKey, value: unknown): boolean {
  if (key === 'notifyNumbers')
    return (
      Array.isArray(value) &&
      value.length <= MAX_NOTIFY_NUMBERS &&
      value.every((number) => typeof number === 'string' && normalizeWhatsappNumber(number) === number)
    )
  if (key.endsWith('On')) return typeof value === 'boolean'
  if (key.endsWith('Template')) return isTemplateName(value)
  return isLanguageCode(value)
}

/**
 * The settings the form was loaded with, posted back in its hidden `loaded` field (JSON): the save
 * writes only what the admin changed from these. Null when absent or not of the settings' shape.
 */
export function loadedMessages(raw: unknown): MessageSettings | null {
  const value = postedJson(raw)
  if (typeof value !== 'object' || value === null) return null
  const record = value as Record<string, unknown>
  const notifyNumbers = record.notifyNumbers
  if (!Array.isArray(notifyNumbers) || !notifyNumbers.every((entry) => typeof entry === 'string')) return null
  for (const key of MESSAGE_SETTING_KEYS) {
    if (key === 'notifyNumbers') continue
    const wanted = key.endsWith('On') ? 'boolean' : 'string'
    if (typeof record[key] !== wanted) return null
  }
  return Object.fromEntries(MESSAGE_SETTING_KEYS.map((key) => [key, record[key]])) as MessageSettings
}

/** A setting's value as the history and the audit log show it. */
export function shownMessageValue(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(ninguno)'
  if (typeof value === 'boolean') return value ? 'Sí' : 'No'
  return String(value)
}

/** The page's intents: save the form, or send the new-order template to the saved numbers. */
export const MESSAGE_INTENTS = ['guardar', 'probar'] as const
export type MessageIntent = (typeof MESSAGE_INTENTS)[number]
export function isMessageIntent(value: unknown): value is MessageIntent {
  return typeof value === 'string' && (MESSAGE_INTENTS as readonly string[]).includes(value)
}
