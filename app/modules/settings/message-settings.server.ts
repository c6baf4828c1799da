import type { Db } from '#app/db/client.server.ts'
import { readMessageSettings } from '#app/modules/messages/messages.server.ts'
import {
  checkMessageForm,
  MESSAGE_SETTING_KEYS,
  MESSAGE_SETTING_LABELS,
  MESSAGES_TEXTS,
  storedKeyOf,
  type MessageFieldErrors,
  type MessageFormValues,
  type MessageSettingKey,
  type MessageSettings,
} from '#app/modules/messages/validators.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { lockSettings, writeSetting } from './settings.server.ts'

/**
 * The save of "Mensajes y Notificaciones" (its rules and reads: the messages module), here because
 * this module alone writes the settings table and its history.
 */

/** A form the shop will not save: one message per field, nothing written. */
export class MessagesRefused extends Refusal {
  readonly errors: MessageFieldErrors
  constructor(errors: MessageFieldErrors) {
    super(MESSAGES_TEXTS.invalid, { status: 422, standsAlone: true })
    this.errors = errors
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * Saves the page's form for the admin `by` (their e-mail): every field is checked first (a refusal,
 * `MessagesRefused`, writes nothing); then, in one transaction under the settings' lock, only what
 * the admin changed from what the form was `loaded` with is written, each with its history row. A
 * field changed meanwhile by someone else refuses the whole save.
 */
export async function saveMessageSettings(
  db: Db,
  defaults: MessageSettings,
  values: MessageFormValues,
  loaded: MessageSettings | null,
  by: string,
): Promise<{ changes: { key: MessageSettingKey; before: unknown; after: unknown }[] }> {
  if (!loaded) throw new Refusal(MESSAGES_TEXTS.stale, { status: 400, standsAlone: true })
  const checked = checkMessageForm(values)
  if (!checked.ok) throw new MessagesRefused(checked.errors)
  const next = checked.settings
  const edited = MESSAGE_SETTING_KEYS.filter((key) => !same(loaded[key], next[key]))
  return db.transaction(async (tx) => {
    await lockSettings(tx)
    const current = await readMessageSettings(tx, defaults)
    const conflicts = edited.filter(
      (key) => !same(current[key], loaded[key]) && !same(current[key], next[key]),
    )
    if (conflicts.length)
      throw new Refusal(MESSAGES_TEXTS.conflict(conflicts.map((key) => MESSAGE_SETTING_LABELS[key])), {
        status: 409,
        standsAlone: true,
      })
    const changes = edited
      .filter((key) => !same(current[key], next[key]))
      .map((key) => ({ key, before: current[key], after: next[key] }))
    for (const { key, before, after } of changes)
      await writeSetting(tx, storedKeyOf(key), { before, after, by })
    return { changes }
  })
}
