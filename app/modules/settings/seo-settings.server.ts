import { inArray, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#app/db/client.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { lockSettings, writeSetting } from './settings.server.ts'
import { settings } from './schema.ts'
import {
  checkSeoSettingsForm,
  SEO_SETTING_DEFAULTS,
  SEO_SETTING_KEYS,
  SEO_SETTINGS_MESSAGES,
  type SeoSettingKey,
  type SeoSettings,
  type SeoSettingsFormValues,
} from './validators.ts'

/**
 * "SEO" (/admin/seo): what sitemap.xml lists, the lines robots.txt adds, and Google Search
 * Console's verification tag on the home page. Kept in `settings` like "Configuraciones" (a save
 * bumps the storefront's change counter, so the cached home page shows a new tag at once), each
 * change with its audit row.
 */

/** A SEO form the shop will not save: one message per field, nothing written. */
export class SeoSettingsRefused extends Refusal {
  readonly errors: Partial<Record<SeoSettingKey, string>>
  constructor(errors: Partial<Record<SeoSettingKey, string>>) {
    super(SEO_SETTINGS_MESSAGES.invalid, { status: 422, standsAlone: true })
    this.errors = errors
  }
}

/** A stored value of the setting's type; anything else reads as its default. */
function storedValue(key: SeoSettingKey, value: unknown): unknown {
  return typeof value === typeof SEO_SETTING_DEFAULTS[key] ? value : undefined
}

/** The SEO settings as saved now (each key never saved: its default). */
export async function readSeoSettings(db: DbOrTx): Promise<SeoSettings> {
  const rows = await db
    .select({ key: settings.key, value: sql<string | null>`${settings.value}::text` })
    .from(settings)
    .where(inArray(settings.key, [...SEO_SETTING_KEYS]))
  const result: SeoSettings = { ...SEO_SETTING_DEFAULTS }
  for (const row of rows) {
    const key = row.key as SeoSettingKey
    const value = storedValue(key, row.value === null ? null : JSON.parse(row.value))
    if (value !== undefined) (result as Record<string, unknown>)[key] = value
  }
  return result
}

/**
 * Saves the SEO form of the admin `by` (their e-mail): checked first (`SeoSettingsRefused` writes
 * nothing), then every changed key with its audit row, in one transaction under the settings lock.
 */
export async function saveSeoSettings(
  db: Db,
  values: Partial<SeoSettingsFormValues>,
  by: string,
): Promise<{ changes: { key: SeoSettingKey; before: unknown; after: unknown }[] }> {
  const checked = checkSeoSettingsForm(values)
  if (!checked.ok) throw new SeoSettingsRefused(checked.errors)
  const next = checked.settings
  return db.transaction(async (tx) => {
    await lockSettings(tx)
    const current = await readSeoSettings(tx)
    const changed = SEO_SETTING_KEYS.filter((key) => current[key] !== next[key])
    for (const key of changed) await writeSetting(tx, key, { before: current[key], after: next[key], by })
    return { changes: changed.map((key) => ({ key, before: current[key], after: next[key] })) }
  })
}
