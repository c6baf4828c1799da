import { Link, useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import {
  ActionMessage,
  dangerButtonClass,
  FormMessage,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { adminCan, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import {
  duplicatePromotion,
  endPromotionNow,
  listPromotions,
  pausePromotion,
  resumePromotion,
  type AdminPromotion,
} from '#app/modules/promotions/admin-promotions.server.ts'
import {
  PROMOTION_MESSAGES,
  PROMOTION_STATE_LABELS,
  type PromotionState,
} from '#app/modules/promotions/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { successAnswer } from '#app/utils/action-answer.ts'
import {
  ADMIN_PROMOTION_CREATE_PATH,
  ADMIN_PROMOTIONS_PATH,
  adminPromotionEditPath,
} from '#app/utils/admin-paths.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { bogotaStamp } from '#app/utils/bogota-days.ts'
import { formatCount } from '#app/utils/count.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { Route } from './+types/list'

/** /admin/descuentos: every promotion and discount code with its state, uses and figures. */

export const meta: Route.MetaFunction = () => [{ title: 'Descuentos y Promociones | Administración' }]

const NOTICES: Record<string, string> = {
  creada: PROMOTION_MESSAGES.created,
  actualizada: PROMOTION_MESSAGES.updated,
}

export const PROMOTION_INTENTS = ['duplicar', 'pausar', 'reanudar', 'terminar'] as const
type PromotionIntent = (typeof PROMOTION_INTENTS)[number]

/** What "Terminar ahora" asks before posting (where scripts run; a plain post ends it at once). */
export const endPromotionConfirm = (name: string) =>
  `¿Terminar ahora «${name}»? Deja de aplicarse de inmediato y no se puede reanudar.`

/** A promotion as the list gets it: its margin only for whom may see costs (issue 27). */
type ShownPromotion = Omit<AdminPromotion, 'margin'> & { margin?: number }

export async function loader({ url, context }: Route.LoaderArgs) {
  const notice = url.searchParams.get('aviso')
  const costs = adminCan(signedInAdminOf(context), 'costs')
  const promotions = await listPromotions(servicesOf(context).database.db)
  return {
    promotions: promotions.map(({ margin, ...promotion }): ShownPromotion => ({
      ...promotion,
      ...(costs ? { margin } : {}),
    })),
    notice: notice ? (NOTICES[notice] ?? null) : null,
  }
}

/** POST intent=duplicar|pausar|reanudar|terminar&id=…: one change to one promotion. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await requireFormData(request)
  const intent = form.get('intent')
  const id = form.get('id')
  const { db } = servicesOf(context).database
  try {
    switch (intent as PromotionIntent) {
      case 'duplicar': {
        const { name } = await duplicatePromotion(db, id)
        return successAnswer(PROMOTION_MESSAGES.duplicated(name), { intent })
      }
      case 'pausar':
        return successAnswer(PROMOTION_MESSAGES.paused((await pausePromotion(db, id)).name), { intent })
      case 'reanudar':
        return successAnswer(PROMOTION_MESSAGES.resumed((await resumePromotion(db, id)).name), { intent })
      case 'terminar':
        return successAnswer(PROMOTION_MESSAGES.ended((await endPromotionNow(db, id)).name), { intent })
      default:
        throw new Refusal(PROMOTION_MESSAGES.badRequest, { status: 400, standsAlone: true })
    }
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: PROMOTION_MESSAGES.unexpected })
  }
}

/** "27/11/2026 8:30 a. m.", Bogotá time. */
function shortMoment(iso: string): string {
  const [day, time] = bogotaStamp(new Date(iso)).split(' ') as [string, string]
  const [year, month, date] = day.split('-')
  const [hours, minutes] = time.split(':').map(Number) as [number, number]
  const hour12 = hours % 12 === 0 ? 12 : hours % 12
  return `${date}/${month}/${year} ${hour12}:${String(minutes).padStart(2, '0')} ${hours < 12 ? 'a. m.' : 'p. m.'}`
}

function datesText(promotion: ShownPromotion): string {
  const from = promotion.startsAt ? `Desde ${shortMoment(promotion.startsAt)}` : 'Desde su creación'
  const to = promotion.endsAt ? `hasta ${shortMoment(promotion.endsAt)}` : 'sin fecha de fin'
  return `${from}, ${to}`
}

/** "3 de 50", or "3" when it has no limit. */
function usesText(promotion: ShownPromotion): string {
  const uses = formatCount(promotion.uses)
  return promotion.maxUses === null ? uses : `${uses} de ${formatCount(promotion.maxUses)}`
}

const STATE_CLASSES: Record<PromotionState, string> = {
  activa: 'bg-green-100 text-green-800',
  programada: 'bg-sky-100 text-sky-800',
  pausada: 'bg-amber-100 text-amber-900',
  agotada: 'bg-gray-200 text-gray-800',
  vencida: 'bg-gray-100 text-gray-700',
}

function StateBadge({ state }: { state: PromotionState }) {
  return (
    <span
      data-testid="promotion-state"
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATE_CLASSES[state]}`}
    >
      {PROMOTION_STATE_LABELS[state]}
    </span>
  )
}

/** One button of a promotion: a plain form post to this page's action, so it works before scripts run. */
function IntentButton({
  promotion,
  intent,
  label,
  danger = false,
  confirm,
}: {
  promotion: ShownPromotion
  intent: PromotionIntent
  label: string
  danger?: boolean
  confirm?: string
}) {
  const navigation = useNavigation()
  const busy =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData.get('id') === String(promotion.id)
  return (
    <AdminForm
      method="post"
      // Posted to the bare list address: a notice left in it ("?aviso=creada") goes away.
      action={ADMIN_PROMOTIONS_PATH}
      onSubmit={(event) => {
        if (confirm && !window.confirm(confirm)) event.preventDefault()
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={promotion.id} />
      <button
        type="submit"
        className={danger ? dangerButtonClass : secondaryButtonClass}
        disabled={busy}
        aria-label={`${label} ${promotion.name}`}
      >
        {label}
      </button>
    </AdminForm>
  )
}

function Actions({ promotion }: { promotion: ShownPromotion }) {
  const ended = promotion.state === 'vencida'
  return (
    <div className="flex flex-wrap gap-2">
      <Link
        to={adminPromotionEditPath(promotion.id)}
        className={secondaryButtonClass}
        aria-label={`Editar ${promotion.name}`}
      >
        Editar
      </Link>
      <IntentButton promotion={promotion} intent="duplicar" label="Duplicar" />
      {ended ? null : promotion.active ? (
        <IntentButton promotion={promotion} intent="pausar" label="Pausar" />
      ) : (
        <IntentButton promotion={promotion} intent="reanudar" label="Reanudar" />
      )}
      {ended ? null : (
        <IntentButton
          promotion={promotion}
          intent="terminar"
          label="Terminar ahora"
          danger
          confirm={endPromotionConfirm(promotion.name)}
        />
      )}
    </div>
  )
}

function CodeText({ code }: { code: string | null }) {
  return code === null ? (
    <span className="text-gray-700">Automática</span>
  ) : (
    <code className="rounded bg-brand-50 px-1.5 py-0.5 font-mono text-sm text-brand-800">{code}</code>
  )
}

export default function AdminPromotions({ loaderData, actionData }: Route.ComponentProps) {
  const { promotions, notice } = loaderData
  // The margin's column only where the loader sent margins.
  const margins = promotions.some((promotion) => promotion.margin !== undefined)
  return (
    <section aria-labelledby="promotions-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="promotions-title" className="text-2xl font-semibold">
          Descuentos y Promociones
        </h1>
        <Link to={ADMIN_PROMOTION_CREATE_PATH} className={primaryButtonClass}>
          Nueva promoción
        </Link>
      </div>
      <FormMessage message={notice} tone="success" />
      <ActionMessage answer={actionData} />
      {promotions.length === 0 ? (
        <p
          data-testid="promotions-empty"
          className="rounded-xl border border-brand-100 bg-white p-6 text-center"
        >
          {PROMOTION_MESSAGES.empty}
        </p>
      ) : (
        <>
          <ul className="flex flex-col gap-3 lg:hidden" data-testid="promotion-cards">
            {promotions.map((promotion) => (
              <li
                key={promotion.id}
                data-testid="promotion-item"
                data-id={promotion.id}
                className="flex flex-col gap-2 rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
              >
                <div className="flex items-start justify-between gap-2">
                  <p className="min-w-0 font-medium break-words" data-testid="promotion-name">
                    {promotion.name}
                  </p>
                  <StateBadge state={promotion.state} />
                </div>
                <p className="text-sm">
                  <CodeText code={promotion.code} />
                  <span className="text-gray-500"> · </span>
                  <span data-testid="promotion-gives">{promotion.description}</span>
                </p>
                <p className="text-xs text-gray-600">{datesText(promotion)}</p>
                <dl className={`grid gap-2 text-sm ${margins ? 'grid-cols-3' : 'grid-cols-2'}`}>
                  <div>
                    <dt className="text-xs text-gray-600">Usos</dt>
                    <dd data-testid="promotion-uses">{usesText(promotion)}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-gray-600">Ventas</dt>
                    <dd className="whitespace-nowrap">{formatCOP(promotion.revenue)}</dd>
                  </div>
                  {promotion.margin === undefined ? null : (
                    <div>
                      <dt className="text-xs text-gray-600">Margen</dt>
                      <dd className="whitespace-nowrap" data-testid="promotion-margin">
                        {formatCOP(promotion.margin)}
                      </dd>
                    </div>
                  )}
                </dl>
                <Actions promotion={promotion} />
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-xl border border-brand-100 bg-white shadow-sm lg:block">
            <table className="w-full text-left text-sm" data-testid="promotion-table">
              <thead className="bg-brand-50 text-xs text-gray-700 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Promoción
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Vigencia
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Estado
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Usos
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Ventas
                  </th>
                  {margins ? (
                    <th scope="col" className="px-3 py-2 text-right">
                      Margen
                    </th>
                  ) : null}
                  <th scope="col" className="px-3 py-2">
                    <span className="sr-only">Acciones</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {promotions.map((promotion) => (
                  <tr
                    key={promotion.id}
                    data-testid="promotion-item"
                    data-id={promotion.id}
                    className="border-t border-brand-100 align-top"
                  >
                    <td className="px-3 py-3">
                      <p className="font-medium" data-testid="promotion-name">
                        {promotion.name}
                      </p>
                      <p className="mt-1">
                        <CodeText code={promotion.code} />
                      </p>
                      <p className="mt-1 text-gray-700" data-testid="promotion-gives">
                        {promotion.description}
                      </p>
                    </td>
                    <td className="px-3 py-3 text-xs text-gray-700">{datesText(promotion)}</td>
                    <td className="px-3 py-3">
                      <StateBadge state={promotion.state} />
                    </td>
                    <td className="px-3 py-3 text-right whitespace-nowrap" data-testid="promotion-uses">
                      {usesText(promotion)}
                    </td>
                    <td className="px-3 py-3 text-right whitespace-nowrap">{formatCOP(promotion.revenue)}</td>
                    {promotion.margin === undefined ? null : (
                      <td className="px-3 py-3 text-right whitespace-nowrap" data-testid="promotion-margin">
                        {formatCOP(promotion.margin)}
                      </td>
                    )}
                    <td className="px-3 py-3">
                      <Actions promotion={promotion} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  )
}
