import { desc, inArray, like, sql } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { WhatsAppError, type WhatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { settingChanges, settings } from '#app/modules/settings/schema.ts'
import {
  isStoredValue,
  MESSAGE_KEY_PREFIX,
  MESSAGE_SETTING_KEYS,
  MESSAGES_TEXTS,
  messageDefaults,
  storedKeyOf,
  type BuyerEvent,
  type MessageSettingKey,
  type MessageSettings,
} from './validators.ts'

/**
 * "Mensajes y Notificaciones": kept in the shop's settings table (key/value, `messages.*` keys) with
 * each change in its history, like "Configuraciones". The settings module alone writes that table
 * (its save is `saveMessageSettings`, settings/message-settings.server.ts); it sits above the order
 * module in the module map, so the order's jobs read these settings here.
 */

/** A JSON value read as its text: drizzle's jsonb reader parses a string twice on PGlite. */
function parseJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text)
}

const keyOfStored = new Map(MESSAGE_SETTING_KEYS.map((key) => [storedKeyOf(key), key]))

/**
 * The settings as saved now, each never saved (or saved by hand with the wrong type) following its
 * default. Reads in the caller's transaction when given one, so an order change follows a save at once.
 */
export async function readMessageSettings(db: DbOrTx, defaults: MessageSettings): Promise<MessageSettings> {
  const rows = await db
    .select({ key: settings.key, value: sql<string | null>`${settings.value}::text` })
    .from(settings)
    .where(inArray(settings.key, [...keyOfStored.keys()]))
  const result = { ...defaults, notifyNumbers: [...defaults.notifyNumbers] } as Record<string, unknown>
  for (const row of rows) {
    const key = keyOfStored.get(row.key)
    const value = parseJson(row.value)
    if (key && isStoredValue(key, value)) result[key] = value
  }
  return result as MessageSettings
}

/** The business numbers told of a new order or a buyer's request, as saved now. */
export async function readNotifyNumbers(db: DbOrTx, defaults: readonly string[]): Promise<string[]> {
  const [row] = await db
    .select({ value: sql<string | null>`${settings.value}::text` })
    .from(settings)
    .where(inArray(settings.key, [storedKeyOf('notifyNumbers')]))
  const value = row ? parseJson(row.value) : undefined
  return isStoredValue('notifyNumbers', value) ? [...(value as string[])] : [...defaults]
}

/** One buyer message's switch, template and language, as saved now. */
export async function readBuyerMessage(
  db: DbOrTx,
  event: BuyerEvent,
): Promise<{ enabled: boolean; template: string; language: string }> {
  const current = await readMessageSettings(db, messageDefaultsWithoutNumbers())
  return {
    enabled: current[`${event}On`],
    template: current[`${event}Template`],
    language: current[`${event}Language`],
  }
}

/** The new-order notice's template and language, as saved now. */
export async function readNewOrderTemplate(db: DbOrTx): Promise<{ template: string; language: string }> {
  const current = await readMessageSettings(db, messageDefaultsWithoutNumbers())
  return { template: current.newOrderTemplate, language: current.newOrderLanguage }
}

/** The defaults apart from the numbers (the only ones from the environment), which these reads never use. */
function messageDefaultsWithoutNumbers(): MessageSettings {
  return messageDefaults([])
}

export type MessageChange = {
  id: number
  key: MessageSettingKey
  oldValue: unknown
  newValue: unknown
  changedBy: string
  changedAt: string
}

/** The page's latest changes, newest first. */
export async function listMessageChanges(db: DbOrTx, limit = 10): Promise<MessageChange[]> {
  const rows = await db
    .select({
      id: settingChanges.id,
      key: settingChanges.key,
      oldValue: sql<string | null>`${settingChanges.oldValue}::text`,
      newValue: sql<string | null>`${settingChanges.newValue}::text`,
      changedBy: settingChanges.changedBy,
      changedAt: settingChanges.changedAt,
    })
    .from(settingChanges)
    .where(like(settingChanges.key, `${MESSAGE_KEY_PREFIX}%`))
    .orderBy(desc(settingChanges.changedAt), desc(settingChanges.id))
    .limit(limit)
  return rows.flatMap((row) => {
    const key = keyOfStored.get(row.key)
    if (!key) return []
    return [
      {
        id: row.id,
        key,
        oldValue: parseJson(row.oldValue),
        newValue: parseJson(row.newValue),
        changedBy: row.changedBy,
        changedAt: row.changedAt.toISOString(),
      },
    ]
  })
}

/** What "Enviar prueba" sends as the new-order template's parameters. */
export const TEST_NOTICE_PARAMETERS = ['Cliente de prueba', '3001234567']

export type TestNoticeResult =
  | { ok: false; reason: 'sin-whatsapp' | 'sin-numeros'; message: string }
  | {
      ok: boolean
      sent: { to: string; messageId: string }[]
      failed: { to: string; error: string }[]
      message: string
    }

/**
 * "Enviar prueba": the new-order template, as saved, to each saved number, straight through the
 * WhatsApp client, so the answer says what WhatsApp said. Without WhatsApp configured (no token)
 * nothing is sent and the answer says so.
 */
export async function sendTestNotice(
  deps: { db: DbOrTx; whatsapp: WhatsAppClient | null },
  defaults: MessageSettings,
): Promise<TestNoticeResult> {
  if (!deps.whatsapp) return { ok: false, reason: 'sin-whatsapp', message: MESSAGES_TEXTS.testNoToken }
  const current = await readMessageSettings(deps.db, defaults)
  if (!current.notifyNumbers.length)
    return { ok: false, reason: 'sin-numeros', message: MESSAGES_TEXTS.testNoNumbers }
  const sent: { to: string; messageId: string }[] = []
  const failed: { to: string; error: string }[] = []
  for (const to of current.notifyNumbers) {
    try {
      const { messageId } = await deps.whatsapp.sendTemplate(
        to,
        current.newOrderTemplate,
        current.newOrderLanguage,
        TEST_NOTICE_PARAMETERS,
      )
      sent.push({ to, messageId })
    } catch (error) {
      if (!(error instanceof WhatsAppError)) throw error
      failed.push({ to, error: error.message })
    }
  }
  const message = failed.length
    ? MESSAGES_TEXTS.testFailed([
        ...failed.map((failure) => `a ${failure.to}: ${failure.error}.`),
        ...(sent.length ? [`Sí llegó a ${sent.map((entry) => entry.to).join(', ')}.`] : []),
      ])
    : MESSAGES_TEXTS.testSent(sent.map((entry) => entry.to))
  return { ok: failed.length === 0, sent, failed, message }
}
