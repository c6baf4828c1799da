import { Form, Link, useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import {
  ActionMessage,
  dangerButtonClass,
  inputClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { formatOrderDate } from '#app/components/admin/order-bits.tsx'
import { searchAudit, type AuditEntry } from '#app/modules/audit/audit.server.ts'
import { changeText } from '#app/modules/audit/changes.ts'
import { AUDIT_PAGE_SIZE, securityQueryOf, type SecurityView } from '#app/modules/audit/validators.ts'
import { adminCan, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { ROLE_LABELS, isRole } from '#app/modules/auth/roles.ts'
import {
  closeAllSessions,
  closeSession,
  openSessions,
  signInHistory,
  type OpenSession,
} from '#app/modules/auth/security.server.ts'
import { SECURITY_MESSAGES, SIGN_IN_OUTCOMES, SIGN_IN_PAGE_SIZE } from '#app/modules/auth/security.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { successAnswer } from '#app/utils/action-answer.ts'
import { ADMIN_SECURITY_CSV_PATH, ADMIN_SECURITY_PATH, adminSecurityPath } from '#app/utils/admin-paths.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { Route } from './+types/security'

/**
 * /admin/seguridad: open sessions (close one, or all of a person's), the sign-in history and, for
 * owners, the audit log of every back-office write, searchable and exported as CSV. Everyone else
 * sees only their own sessions and sign-ins.
 */

export const meta: Route.MetaFunction = () => [{ title: 'Seguridad | Administración' }]

const UNEXPECTED = 'No se pudo cerrar la sesión. Intenta de nuevo en un momento.'

export async function loader({ url, context }: Route.LoaderArgs) {
  const { db } = servicesOf(context).database
  const admin = signedInAdminOf(context)
  const owner = adminCan(admin, 'team')
  const query = securityQueryOf(url.searchParams)
  // Only an owner has the audit log; anyone else asking for it sees their sessions.
  const view: SecurityView = query.ver === 'cambios' && !owner ? 'sesiones' : query.ver
  const filters = { q: query.q, from: query.desde, to: query.hasta, page: query.pagina }
  const own = owner ? null : admin.email
  return {
    owner,
    view,
    query: { q: query.q ?? '', desde: query.desde ?? '', hasta: query.hasta ?? '' },
    you: admin.email,
    sessions: view === 'sesiones' ? await openSessions(db, { email: own, currentId: admin.sessionId }) : [],
    signIns: view === 'ingresos' ? await signInHistory(db, filters, own) : null,
    audit: view === 'cambios' ? await searchAudit(db, filters) : null,
  }
}

export const SECURITY_INTENTS = { closeOne: 'cerrar-sesion', closeAll: 'cerrar-todas' } as const

/** POST intent=cerrar-sesion&id=… or intent=cerrar-todas&email=…: ends sessions at once. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await requireFormData(request)
  const { db } = servicesOf(context).database
  const admin = signedInAdminOf(context)
  const actor = { email: admin.email, mayCloseOthers: adminCan(admin, 'team') }
  const intent = form.get('intent')
  try {
    if (intent === SECURITY_INTENTS.closeOne) {
      const id = form.get('id')
      await closeSession(db, actor, id)
      return successAnswer(SECURITY_MESSAGES.sessionClosed, { intent })
    }
    if (intent === SECURITY_INTENTS.closeAll) {
      const { email, count } = await closeAllSessions(db, actor, form.get('email'), admin.sessionId)
      return successAnswer(
        count ? SECURITY_MESSAGES.sessionsClosed(count, email) : SECURITY_MESSAGES.noSessions(email),
        {
          intent,
        },
      )
    }
    throw new Refusal(SECURITY_MESSAGES.badRequest, { status: 400, standsAlone: true })
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: UNEXPECTED }, { intent })
  }
}

const TABS: { view: SecurityView; label: string; ownerOnly?: boolean }[] = [
  { view: 'sesiones', label: 'Sesiones abiertas' },
  { view: 'ingresos', label: 'Inicios de sesión' },
  { view: 'cambios', label: 'Registro de cambios', ownerOnly: true },
]

function Tabs({ view, owner }: { view: SecurityView; owner: boolean }) {
  return (
    <nav aria-label="Secciones de seguridad" className="flex flex-wrap gap-2">
      {TABS.filter((tab) => owner || !tab.ownerOnly).map((tab) => (
        <Link
          key={tab.view}
          to={adminSecurityPath({ ver: tab.view })}
          aria-current={tab.view === view ? 'page' : undefined}
          className={`rounded-full px-4 py-1.5 text-sm font-medium ${
            tab.view === view ? 'bg-brand-600 text-white' : 'border border-brand-200 bg-white text-brand-700'
          }`}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  )
}

function SessionsView({ sessions, owner, you }: { sessions: OpenSession[]; owner: boolean; you: string }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const people = [...new Set(sessions.map((session) => session.email))]
  if (!sessions.length) return <p className="text-sm">No hay sesiones abiertas.</p>
  return (
    <div className="flex flex-col gap-4">
      {people.map((email) => {
        const own = sessions.filter((session) => session.email === email)
        const others = own.filter((session) => !session.current).length
        return (
          <section
            key={email}
            aria-label={`Sesiones de ${email}`}
            data-testid="session-group"
            data-email={email}
            className="flex flex-col gap-2 rounded-xl border border-brand-100 bg-white p-4"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="font-semibold break-all">
                {email}
                {email === you ? ' (tú)' : ''}
              </h2>
              {others > 0 ? (
                <AdminForm method="post" action={ADMIN_SECURITY_PATH}>
                  <input type="hidden" name="intent" value={SECURITY_INTENTS.closeAll} />
                  <input type="hidden" name="email" value={email} />
                  <button type="submit" className={dangerButtonClass} disabled={busy}>
                    {email === you ? 'Cerrar todas las demás' : 'Cerrar todas'}
                  </button>
                </AdminForm>
              ) : null}
            </div>
            <ul className="flex flex-col divide-y divide-brand-50">
              {own.map((session) => (
                <li
                  key={session.id}
                  data-testid="open-session"
                  className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
                >
                  <div>
                    <p className="font-medium">
                      {session.device}
                      {session.current ? (
                        <span className="ml-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">
                          Esta sesión
                        </span>
                      ) : null}
                    </p>
                    <p className="text-xs text-gray-600">
                      {session.ipAddress ? `Dirección ${session.ipAddress} · ` : ''}
                      Último uso {formatOrderDate(session.lastSeenAt)} · Inició{' '}
                      {formatOrderDate(session.createdAt)}
                    </p>
                  </div>
                  {session.current ? null : (
                    <AdminForm method="post" action={ADMIN_SECURITY_PATH}>
                      <input type="hidden" name="intent" value={SECURITY_INTENTS.closeOne} />
                      <input type="hidden" name="id" value={session.id} />
                      <button
                        type="submit"
                        className={secondaryButtonClass}
                        disabled={busy}
                        aria-label={`Cerrar esta sesión: ${session.device}${owner ? ` de ${email}` : ''}`}
                      >
                        Cerrar esta sesión
                      </button>
                    </AdminForm>
                  )}
                </li>
              ))}
            </ul>
          </section>
        )
      })}
    </div>
  )
}

function SearchForm({
  view,
  query,
  csv,
}: {
  view: SecurityView
  query: { q: string; desde: string; hasta: string }
  csv: boolean
}) {
  return (
    <Form
      method="get"
      action={ADMIN_SECURITY_PATH}
      role="search"
      className="grid gap-3 rounded-xl border border-brand-100 bg-white p-4 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end"
    >
      <input type="hidden" name="ver" value={view} />
      <div>
        <label htmlFor="security-q" className={labelClass}>
          Buscar
        </label>
        <input
          id="security-q"
          name="q"
          type="search"
          defaultValue={query.q}
          placeholder={view === 'cambios' ? 'Correo, sección, SKU, valor…' : 'Correo, dirección, navegador…'}
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="security-desde" className={labelClass}>
          Desde
        </label>
        <input
          id="security-desde"
          name="desde"
          type="date"
          defaultValue={query.desde}
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="security-hasta" className={labelClass}>
          Hasta
        </label>
        <input
          id="security-hasta"
          name="hasta"
          type="date"
          defaultValue={query.hasta}
          className={inputClass}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={primaryButtonClass}>
          Buscar
        </button>
        {csv ? (
          <a
            className={secondaryButtonClass}
            href={adminSecurityPath({ ver: view, ...query }, ADMIN_SECURITY_CSV_PATH)}
            download
          >
            Descargar CSV
          </a>
        ) : null}
      </div>
    </Form>
  )
}

function Pages({
  view,
  query,
  page,
  total,
  pageSize,
}: {
  view: SecurityView
  query: { q: string; desde: string; hasta: string }
  page: number
  total: number
  pageSize: number
}) {
  const last = Math.max(1, Math.ceil(total / pageSize))
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <p>
        {formatCount(total)} {total === 1 ? 'registro' : 'registros'} · página {formatCount(page)} de{' '}
        {formatCount(last)}
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link
            className={secondaryButtonClass}
            to={adminSecurityPath({ ver: view, ...query, pagina: page - 1 })}
          >
            Anterior
          </Link>
        ) : null}
        {page < last ? (
          <Link
            className={secondaryButtonClass}
            to={adminSecurityPath({ ver: view, ...query, pagina: page + 1 })}
          >
            Siguiente
          </Link>
        ) : null}
      </div>
    </div>
  )
}

function AuditItem({ entry }: { entry: AuditEntry }) {
  const fields = Object.entries(entry.fields)
  return (
    <li data-testid="audit-entry" className="flex flex-col gap-1 py-3 text-sm">
      <p className="flex flex-wrap gap-x-2">
        <span className="font-medium">{formatOrderDate(entry.at)}</span>
        <span className="break-all">{entry.actorEmail}</span>
        <span className="text-gray-600">
          ({isRole(entry.actorRole) ? ROLE_LABELS[entry.actorRole] : entry.actorRole})
        </span>
      </p>
      <p>
        {entry.section}
        {entry.intent ? ` · ${entry.intent}` : ''} ·{' '}
        <span className={entry.status < 400 ? 'text-green-800' : 'text-red-700'}>
          {entry.status < 400 ? 'Hecho' : `Rechazado (${entry.status})`}
        </span>
      </p>
      {entry.changes.length ? (
        <ul className="list-disc pl-5" data-testid="audit-changes">
          {entry.changes.map((change, index) => (
            <li key={index}>{changeText(change)}</li>
          ))}
        </ul>
      ) : null}
      {fields.length ? (
        <details>
          <summary className="cursor-pointer text-xs text-gray-600">Datos enviados ({entry.path})</summary>
          <dl className="mt-1 grid gap-x-3 text-xs sm:grid-cols-[auto_1fr]">
            {fields.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="font-medium">{name}</dt>
                <dd className="break-all">{value}</dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </li>
  )
}

export default function AdminSecurity({ loaderData, actionData }: Route.ComponentProps) {
  const { owner, view, query, you, sessions, signIns, audit } = loaderData
  return (
    <section aria-labelledby="security-title" className="flex flex-col gap-4">
      <h1 id="security-title" className="text-2xl font-semibold">
        Seguridad
      </h1>
      <p className="text-sm text-gray-700">
        {owner
          ? 'Las sesiones abiertas del equipo, quién inició sesión y cada cambio hecho en la administración. Los registros se guardan un año.'
          : 'Tus sesiones abiertas y tus inicios de sesión de este último año.'}
      </p>
      <Tabs view={view} owner={owner} />
      <ActionMessage answer={actionData} />
      {view === 'sesiones' ? <SessionsView sessions={sessions} owner={owner} you={you} /> : null}
      {signIns ? (
        <>
          <SearchForm view={view} query={query} csv={owner} />
          {signIns.signIns.length ? (
            <ul className="flex flex-col divide-y divide-brand-50 rounded-xl border border-brand-100 bg-white px-4">
              {signIns.signIns.map((signIn) => (
                <li
                  key={signIn.id}
                  data-testid="sign-in"
                  className="flex flex-wrap justify-between gap-2 py-2 text-sm"
                >
                  <span>
                    <span className="font-medium">{formatOrderDate(signIn.at)}</span> ·{' '}
                    <span className="break-all">{signIn.email}</span>
                  </span>
                  <span className="text-gray-700">
                    <span className={signIn.outcome === 'ok' ? 'text-green-800' : 'text-red-700'}>
                      {SIGN_IN_OUTCOMES[signIn.outcome] ?? signIn.outcome}
                    </span>{' '}
                    · {signIn.device}
                    {signIn.ipAddress ? ` · ${signIn.ipAddress}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm">No hay inicios de sesión con esos filtros.</p>
          )}
          <Pages
            view={view}
            query={query}
            page={signIns.page}
            total={signIns.total}
            pageSize={SIGN_IN_PAGE_SIZE}
          />
        </>
      ) : null}
      {audit ? (
        <>
          <SearchForm view={view} query={query} csv />
          {audit.entries.length ? (
            <ul className="flex flex-col divide-y divide-brand-50 rounded-xl border border-brand-100 bg-white px-4">
              {audit.entries.map((entry) => (
                <AuditItem key={entry.id} entry={entry} />
              ))}
            </ul>
          ) : (
            <p className="text-sm">No hay cambios registrados con esos filtros.</p>
          )}
          <Pages view={view} query={query} page={audit.page} total={audit.total} pageSize={AUDIT_PAGE_SIZE} />
        </>
      ) : null}
    </section>
  )
}
