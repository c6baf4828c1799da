import { createContext, type RouterContextProvider } from 'react-router'

/** One value a back-office write changed, as the owner reads it ("Precio nivel 1": $ 40.000 → $ 45.000). */
export type AuditChange = {
  /** What it belongs to: "Producto ARE-001", "Configuraciones", "ana@gmail.com". */
  subject: string
  label: string
  before: string | null
  after: string | null
}

/**
 * The changes noted while one admin request runs: the middleware puts an empty list in the context
 * before the action and stores whatever the action noted with the request's audit entry.
 */
export const auditChangesContext = createContext<AuditChange[] | null>(null)

/** Notes what an action changed (only values that differ), for the request's audit entry. */
export function noteAuditChanges(context: Readonly<RouterContextProvider>, changes: readonly AuditChange[]) {
  const noted = context.get(auditChangesContext)
  if (!noted) return
  noted.push(...changes.filter((change) => change.before !== change.after))
}

/** The changes between two records' display values, field by field, under `subject`. */
export function changesBetween(
  subject: string,
  labels: Record<string, string>,
  before: Record<string, string | null> | null,
  after: Record<string, string | null> | null,
): AuditChange[] {
  return Object.entries(labels).map(([key, label]) => ({
    subject,
    label,
    before: before?.[key] ?? null,
    after: after?.[key] ?? null,
  }))
}

/** "Producto ARE-001 · Costo: $ 10.000,00 → $ 12.000,00". */
export function changeText(change: AuditChange): string {
  return `${change.subject} · ${change.label}: ${change.before ?? '—'} → ${change.after ?? '—'}`
}
