import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { ActionMessage, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import { dismissFailedJob, FAILED_JOB_MESSAGES, listFailedJobs } from '#app/jobs/dead-letters.server.ts'
import { adminCan, requirePermission, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { inventoryTotals } from '#app/modules/inventory/totals.server.ts'
import { CLAIM_KIND_LABELS } from '#app/modules/order/claims.ts'
import { spanishDay } from '#app/utils/spanish-dates.ts'
import { deskCounts } from '#app/modules/order/desk.server.ts'
import { openClaims } from '#app/modules/order/request-claim.server.ts'
import { successAnswer } from '#app/utils/action-answer.ts'
import { formFailure, refusedAnswer } from '#app/utils/answer.server.ts'
import { adminOrderPath, adminOrdersPath } from '#app/utils/admin-paths.ts'
import { Link } from 'react-router'
import { formatCOP } from '#app/utils/money.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/dashboard'

export const meta: Route.MetaFunction = () => [{ title: 'Inicio | Administración' }]

export async function loader({ context }: Route.LoaderArgs) {
  const { database } = servicesOf(context)
  const admin = signedInAdminOf(context)
  const { units, costValue, level1Value, level5Value } = await inventoryTotals(database.db)
  return {
    // Units for everyone; the value at cost only with `costs`, at the price levels only with `money`
    // (issue 27): a figure a role may not see never leaves the server.
    totals: {
      units,
      ...(adminCan(admin, 'costs') ? { costValue } : {}),
      ...(adminCan(admin, 'money') ? { level1Value, level5Value } : {}),
    },
    orders: await deskCounts(database.db),
    claims: await openClaims(database.db),
    // Failed notices, channel syncs and events: the owner's to review (they carry order details).
    failedJobs: adminCan(admin, 'channels') ? await listFailedJobs(database) : null,
  }
}

/** "Marcar como revisada": the owner dealt with a failed job, so it leaves the list. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await requireFormData(request)
  try {
    requirePermission(signedInAdminOf(context), 'channels')
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: FAILED_JOB_MESSAGES.dismissFailed })
  }
  const id = form.get('jobId')
  const dismissed =
    form.get('intent') === 'revisada' &&
    typeof id === 'string' &&
    (await dismissFailedJob(servicesOf(context).database, id))
  // Not dismissed (already reviewed, or no such job): said on the page, answered 404.
  return dismissed
    ? successAnswer(FAILED_JOB_MESSAGES.dismissed)
    : refusedAnswer(FAILED_JOB_MESSAGES.dismissFailed, 404)
}

const failedAtFormat = new Intl.DateTimeFormat('es-CO', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'America/Bogota',
})

export default function AdminDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { totals, failedJobs, orders, claims } = loaderData
  const queues = [
    {
      id: 'to-confirm',
      label: 'Pedidos por confirmar',
      hint: 'Contra entrega sin confirmar',
      count: orders.toConfirm,
      to: adminOrdersPath({ ver: 'por-confirmar' }),
    },
    {
      id: 'transfers',
      label: 'Transferencias por confirmar',
      hint: 'Revisa tu banco y marca las pagadas',
      count: orders.transfers,
      to: adminOrdersPath({ ver: 'transferencias' }),
    },
    {
      id: 'to-ship',
      label: 'Pedidos por enviar',
      hint: 'Pagados o confirmados, sin enviar',
      count: orders.toShip,
      to: adminOrdersPath({ ver: 'por-enviar' }),
    },
  ]
  const cards = [
    totals.costValue === undefined
      ? null
      : {
          id: 'cost',
          label: 'Inventario a costo',
          hint: 'Costo × stock',
          value: formatCOP(totals.costValue),
        },
    totals.level1Value === undefined
      ? null
      : {
          id: 'level1',
          label: 'Inventario a precio nivel 1',
          hint: 'Nivel 1 × stock',
          value: formatCOP(totals.level1Value),
        },
    totals.level5Value === undefined
      ? null
      : {
          id: 'level5',
          label: 'Inventario a precio nivel 5',
          hint: 'Nivel 5 × stock',
          value: formatCOP(totals.level5Value),
        },
    {
      id: 'units',
      label: 'Unidades en stock',
      hint: 'Total de unidades',
      value: totals.units.toLocaleString('es-CO'),
    },
  ].filter((card) => card !== null)
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title" className="mb-4 text-2xl font-semibold">
        Inicio
      </h1>
      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {cards.map((card) => (
          <div key={card.id} className="rounded-xl border border-brand-100 bg-white p-4 shadow-sm">
            <dt className="text-sm text-gray-600">
              {card.label}
              <span className="block text-xs text-gray-500">{card.hint}</span>
            </dt>
            <dd className="mt-2 text-xl font-semibold text-brand-700" data-testid={`total-${card.id}`}>
              {card.value}
            </dd>
          </div>
        ))}
      </dl>
      {claims.length ? (
        <section
          aria-labelledby="claims-title"
          className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-4"
          data-testid="open-claims"
        >
          <h2 id="claims-title" className="mb-2 font-semibold text-amber-900">
            Solicitudes de clientes por responder
          </h2>
          <ul className="flex flex-col gap-1 text-sm">
            {claims.map((claim) => (
              <li key={claim.id}>
                <Link to={adminOrderPath(claim.orderId)} className="font-medium text-brand-700 underline">
                  Pedido #{claim.orderNumber}
                </Link>
                : {CLAIM_KIND_LABELS[claim.kind]}, plazo {spanishDay(claim.deadline)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <ul className="mt-4 grid gap-4 sm:grid-cols-2" data-testid="order-queues">
        {queues.map((queue) => (
          <li key={queue.id}>
            <Link
              to={queue.to}
              data-testid={`orders-${queue.id}`}
              className="flex items-center justify-between gap-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm hover:border-brand-300"
            >
              <span className="text-sm text-gray-600">
                {queue.label}
                <span className="block text-xs text-gray-500">{queue.hint}</span>
              </span>
              <span className="text-2xl font-semibold text-brand-700" data-testid={`count-${queue.id}`}>
                {queue.count}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {failedJobs ? (
        <section
          aria-labelledby="failed-jobs-title"
          className="mt-6 rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
          data-testid="failed-jobs"
        >
          <h2 id="failed-jobs-title" className="text-lg font-semibold">
            Tareas fallidas
          </h2>
          <p className="mb-3 text-sm text-gray-600">
            Avisos y tareas en segundo plano que se reintentaron sin éxito y no se completaron.
          </p>
          <ActionMessage answer={actionData} />
          {failedJobs.total === 0 ? (
            <p data-testid="failed-jobs-empty" className="text-sm text-green-700">
              No hay tareas fallidas.
            </p>
          ) : (
            <>
              <ul className="flex flex-col gap-2">
                {failedJobs.items.map((job) => (
                  <li
                    key={job.id}
                    data-testid="failed-job"
                    className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm"
                  >
                    <p className="font-medium text-red-800">{job.description}</p>
                    <p className="text-gray-700">
                      {failedAtFormat.format(new Date(job.failedAt))}
                      {job.error ? ` · ${job.error}` : null}
                    </p>
                    <AdminForm method="post" className="mt-2">
                      <input type="hidden" name="intent" value="revisada" />
                      <input type="hidden" name="jobId" value={job.id} />
                      <button type="submit" className={secondaryButtonClass}>
                        Marcar como revisada
                      </button>
                    </AdminForm>
                  </li>
                ))}
              </ul>
              {failedJobs.total > failedJobs.items.length ? (
                <p className="mt-2 text-sm text-gray-600">
                  y {failedJobs.total - failedJobs.items.length} más.
                </p>
              ) : null}
            </>
          )}
        </section>
      ) : null}
    </section>
  )
}
