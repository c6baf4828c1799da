import { and, desc, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { bogotaDayRange, bogotaStamp } from '#app/utils/bogota-days.ts'
import { containsPattern } from '#app/utils/text.ts'
import { spreadsheetCsv } from '#app/utils/spreadsheet-csv.ts'
import { changeText, type AuditChange } from './changes.ts'
import { auditEntries } from './schema.ts'
import { AUDIT_PAGE_SIZE } from './validators.ts'

/** Audit entries and sign-ins are kept this long. */
export const SECURITY_RECORDS_KEPT_MS = 365 * 24 * 60 * 60 * 1000
/** The CSV has every match up to this many. */
export const AUDIT_EXPORT_LIMIT = 50_000

/** Fields never kept: the anti-forgery token, and anything that looks like a secret. */
const SECRET_FIELD = /csrf|token|secret|password|contrase|clave|key|firma/i
const MAX_FIELDS = 40
const MAX_VALUE_LENGTH = 200

/** What a back-office form posted, as the log keeps it: no secrets, no files, values cut short. */
export function postedFieldsOf(form: FormData | null): {
  intent: string | null
  fields: Record<string, string>
} {
  const fields: Record<string, string> = {}
  let intent: string | null = null
  if (!form) return { intent, fields }
  for (const [name, value] of form) {
    if (name === 'intent' && typeof value === 'string') {
      intent = value.slice(0, 60)
      continue
    }
    if (SECRET_FIELD.test(name)) continue
    if (Object.keys(fields).length >= MAX_FIELDS && !(name in fields)) continue
    const text =
      typeof value === 'string' ? value : value.size > 0 ? `[archivo ${value.name || 'sin nombre'}]` : ''
    if (!text) continue
    const shown = text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…` : text
    fields[name] = name in fields ? `${fields[name]}, ${shown}` : shown
  }
  return { intent, fields }
}

const SECTIONS: readonly [string, string][] = [
  ['/admin/productos', 'Productos'],
  ['/admin/pedidos', 'Gestión de pedidos'],
  ['/admin/usuarios', 'Usuarios'],
  ['/admin/ventas', 'Ventas'],
  ['/admin/reportes', 'Reportes'],
  ['/admin/configuraciones', 'Configuraciones'],
  ['/admin/mensajes', 'Mensajes y Notificaciones'],
  ['/admin/seo', 'SEO'],
  ['/admin/marketing', 'Marketing'],
  ['/admin/canales', 'Canales'],
  ['/admin/categorias', 'Categorías'],
  ['/admin/descuentos', 'Descuentos y Promociones'],
  ['/admin/seguridad', 'Seguridad'],
  ['/admin/perfil', 'Perfil'],
  ['/admin/ayuda', 'Ayuda'],
]

/** The menu section an admin address belongs to. */
export function sectionOf(pathname: string): string {
  return (
    SECTIONS.find(([prefix]) => pathname === prefix || pathname.startsWith(`${prefix}/`))?.[1] ?? 'Inicio'
  )
}

export type AdminWrite = {
  actorEmail: string
  actorRole: string
  path: string
  form: FormData | null
  changes: readonly AuditChange[]
  status: number
  ipAddress: string | null
  at?: Date
}

/** Stores one back-office write (the admin middleware calls it once the action has answered). */
export async function recordAdminWrite(db: DbOrTx, write: AdminWrite) {
  const { intent, fields } = postedFieldsOf(write.form)
  await db.insert(auditEntries).values({
    at: write.at ?? new Date(),
    actorEmail: write.actorEmail,
    actorRole: write.actorRole,
    section: sectionOf(write.path),
    path: write.path.slice(0, 300),
    intent,
    fields,
    changes: [...write.changes],
    status: write.status,
    ipAddress: write.ipAddress,
  })
}

export type AuditQuery = { q?: string; from?: string; to?: string; page?: number }

function conditionsOf(query: AuditQuery): SQL | undefined {
  const { start, end } = bogotaDayRange({ from: query.from, to: query.to })
  const conditions: SQL[] = []
  if (start) conditions.push(gte(auditEntries.at, start))
  if (end) conditions.push(lt(auditEntries.at, end))
  const words = query.q?.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8) ?? []
  for (const word of words) {
    const pattern = containsPattern(word)
    // One text per entry: who, where, what was posted and what changed.
    conditions.push(
      sql`lower(concat_ws(' ', ${auditEntries.actorEmail}, ${auditEntries.section}, ${auditEntries.path}, ${auditEntries.intent}, ${auditEntries.fields}::text, ${auditEntries.changes}::text)) like ${pattern}`,
    )
  }
  return conditions.length ? and(...conditions) : undefined
}

export type AuditEntry = Omit<typeof auditEntries.$inferSelect, 'at'> & { at: string }

const shown = (row: typeof auditEntries.$inferSelect): AuditEntry => ({ ...row, at: row.at.toISOString() })

/** One page of the log, newest first, and how many entries match. */
export async function searchAudit(db: DbOrTx, query: AuditQuery) {
  const where = conditionsOf(query)
  const page = Math.max(1, query.page ?? 1)
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditEntries)
      .where(where)
      .orderBy(desc(auditEntries.at), desc(auditEntries.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((page - 1) * AUDIT_PAGE_SIZE),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(auditEntries)
      .where(where),
  ])
  return { entries: rows.map(shown), total: total?.count ?? 0, page }
}

/** Every match, newest first, for the CSV. */
export async function auditForExport(db: DbOrTx, query: AuditQuery): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditEntries)
    .where(conditionsOf(query))
    .orderBy(desc(auditEntries.at), desc(auditEntries.id))
    .limit(AUDIT_EXPORT_LIMIT)
  return rows.map(shown)
}

/** Entries older than a year go (the daily `security-purge` job). */
export async function purgeOldAuditEntries(db: DbOrTx, now = new Date()) {
  const deleted = await db
    .delete(auditEntries)
    .where(lt(auditEntries.at, new Date(now.getTime() - SECURITY_RECORDS_KEPT_MS)))
    .returning({ id: auditEntries.id })
  return deleted.length
}

/** The log as a spreadsheet: one row per write, its changes and posted fields in one cell each. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  return spreadsheetCsv(
    [
      'Fecha',
      'Quién',
      'Rol',
      'Sección',
      'Dirección',
      'Acción',
      'Resultado',
      'Cambios',
      'Datos enviados',
      'IP',
    ],
    entries.map((entry) => [
      bogotaStamp(new Date(entry.at)),
      entry.actorEmail,
      entry.actorRole,
      entry.section,
      entry.path,
      entry.intent ?? '',
      entry.status < 400 ? 'Hecho' : `Rechazado (${entry.status})`,
      entry.changes.map(changeText).join('; '),
      Object.entries(entry.fields)
        .map(([name, value]) => `${name}=${value}`)
        .join('; '),
      entry.ipAddress ?? '',
    ]),
  )
}
