import { formatOrderDate } from '#app/components/admin/order-bits.tsx'
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
    <section aria-labelledby="changes-title" className={cardClass}>
      <h2 id="changes-title" className="text-lg font-semibold">
        Últimos cambios
      </h2>
      {changes.length === 0 ? (
        <p className="text-sm text-gray-600">Todavía no hay cambios: se usan los valores iniciales.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-brand-50 text-sm" data-testid="setting-changes">
          {changes.map((change) => (
            <li key={change.id} className="flex flex-col gap-1 py-2" data-testid="setting-change">
              <div className="flex flex-wrap justify-between gap-2">
                <span className="font-medium">{changeLabel(change)}</span>
                <span className="text-gray-600">
                  {formatOrderDate(change.changedAt)} · {change.changedBy}
                </span>
              </div>
              <p className="break-words text-gray-700">
                {change.oldValue === null ? null : (
                  <span className="line-through decoration-gray-400">
                    {shownSettingValue(change.key, change.oldValue)}
                  </span>
                )}
                {change.oldValue !== null && change.newValue !== null ? ' → ' : null}
                {change.newValue === null ? null : (
                  <span>{shownSettingValue(change.key, change.newValue)}</span>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
