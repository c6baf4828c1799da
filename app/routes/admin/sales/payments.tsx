import { data, Link } from 'react-router'
import { ActionMessage, FormMessage } from '#app/components/admin/form-message.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import {
  PaymentRefundSchema,
  paymentFiltersFrom,
  paymentFiltersQuery,
  paymentRangeMessage,
  PAYMENTS_MESSAGES,
} from '#app/modules/payment/reconciliation.ts'
import { listPayments, startPaymentRefund } from '#app/modules/payment/reconciliation.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { successAnswer } from '#app/utils/action-answer.ts'
import { adminSalesPath } from '#app/utils/admin-paths.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { PaymentsFilter } from './payments/filter.tsx'
import { PaymentsTable } from './payments/table.tsx'
import { PaymentTotals } from './payments/totals.tsx'
import type { Route } from './+types/payments'

export const meta: Route.MetaFunction = () => [{ title: 'Pagos | Administración' }]

export async function loader({ url, context }: Route.LoaderArgs) {
  const filters = paymentFiltersFrom(url.searchParams)
  const message = paymentRangeMessage(filters)
  if (message) return data({ filters, message, list: null }, { status: 400 })
  const list = await listPayments(servicesOf(context).database.db, filters)
  return { filters, message: null, list }
}

/** POST intent=reembolsar&provider=&paymentId=: starts the refund of a flagged payment. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await requireFormData(request)
  const parsed = PaymentRefundSchema.safeParse(Object.fromEntries(form))
  const paymentId = parsed.success ? parsed.data.paymentId : null
  try {
    if (!parsed.success) throw new Refusal(PAYMENTS_MESSAGES.badRefund, { status: 400 })
    const { database, jobs } = servicesOf(context)
    const started = await startPaymentRefund(database.db, jobs, {
      provider: parsed.data.provider,
      paymentId: parsed.data.paymentId,
      by: signedInAdminOf(context).email,
    })
    return successAnswer(started.message, { paymentId })
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: PAYMENTS_MESSAGES.refundFailed }, { paymentId })
  }
}

export default function Payments({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, message, list } = loaderData
  const flagged = list?.rows.filter((row) => row.flag).length ?? 0
  return (
    <section aria-labelledby="payments-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="payments-title" className="text-2xl font-semibold">
          Pagos
        </h1>
        <Link
          to={adminSalesPath(paymentFiltersQuery({ ...filters, provider: 'todos' }))}
          className="text-sm font-medium text-brand-700 underline"
        >
          Ver ventas de estas fechas
        </Link>
      </div>

      <PaymentsFilter filters={filters} csv={Boolean(list)} />
      <ActionMessage answer={actionData} />

      {message || !list ? (
        <FormMessage message={message} tone="error" />
      ) : list.rows.length === 0 ? (
        <p
          data-testid="payments-empty"
          className="rounded-xl border border-brand-100 bg-white p-6 text-center"
        >
          {PAYMENTS_MESSAGES.empty}
        </p>
      ) : (
        <>
          <PaymentTotals totals={list.totals} />
          {flagged ? (
            <p role="status" data-testid="payments-flagged" className="text-sm font-medium text-amber-900">
              {flagged === 1
                ? '1 pago por revisar: mira la nota bajo él.'
                : `${formatCount(flagged)} pagos por revisar: mira la nota bajo cada uno.`}
            </p>
          ) : null}
          <PaymentsTable rows={list.rows} />
        </>
      )}
    </section>
  )
}
