import { ChangeHistory } from '#app/components/admin/change-history.tsx'
import type { SettingChange } from '#app/modules/settings/settings.server.ts'
import {
  BANNER_CHANGE_KEY,
  MONEY_SETTINGS,
  SETTING_LABELS,
  SETTING_VALUE_LABELS,
  type SettingKey,
} from '#app/modules/settings/validators.ts'
import { formatCOP } from '#app/utils/money.ts'
import { cardClass } from './card.ts'

/** A value of the history as the owner reads it (the audit log of "Seguridad" words it the same). */
export function shownSettingValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return '—'
  // A setting that may be left empty (the carrier's pickup street, municipality or phone).
  if (value === '') return 'Sin definir'
  if (MONEY_SETTINGS.has(key) && typeof value === 'number') return formatCOP(value)
  const words = SETTING_VALUE_LABELS[key as SettingKey]
  if (words && typeof value === 'string' && Object.hasOwn(words, value)) return words[value]!
  if (key === BANNER_CHANGE_KEY && typeof value === 'object') {
    const banner = value as { alt?: string; position?: number; active?: boolean; link?: string | null }
    const parts = [
      `«${banner.alt ?? ''}»`,
      `posición ${banner.position ?? '?'}`,
      banner.active ? 'activo' : 'inactivo',
    ]
    if (banner.link) parts.push(`enlace ${banner.link}`)
    return parts.join(', ')
  }
  return String(value)
}

function changeLabel(change: SettingChange): string {
  if (change.key !== BANNER_CHANGE_KEY) return SETTING_LABELS[change.key as SettingKey] ?? change.key
  if (change.oldValue === null) return 'Banner agregado'
  if (change.newValue === null) return 'Banner eliminado'
  return 'Banner modificado'
}

export function ChangesSection({ changes }: { changes: SettingChange[] }) {
  return (
    <ChangeHistory
      changes={changes}
      labelOf={changeLabel}
      shown={(change, value) => shownSettingValue(change.key, value)}
      testId="setting-change"
      className={cardClass}
    />
  )
}
