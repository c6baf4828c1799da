import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { dangerButtonClass, inputClass, primaryButtonClass } from '#app/components/admin/form-message.tsx'
import { CLAIM_STATUS_LABELS, CLAIM_TEXT_MAX, REVERSAL_CAUSE_LABELS } from '#app/modules/order/claims.ts'
import { spanishDay } from '#app/utils/spanish-dates.ts'
import type { ClaimKind, ClaimStatus, ReversalCause } from '#app/modules/order/schema.ts'
import { Section } from './section.tsx'

/** Each request by its name ("solicitud": the state labels and "recibida" agree with it). */
const REQUEST_NAMES: Record<ClaimKind, string> = {
  retracto: 'Solicitud de retracto',
  reversion: 'Solicitud de reversión del pago',
}

export type DeskClaim = {
  id: number
  kind: ClaimKind
  status: ClaimStatus
  cause: ReversalCause | null
  learnedOn: string | null
  description: string
  deadline: string
  requestedDay: string
  decidedBy: string | null
  decisionNote: string | null
  /** Days left to the deadline, counted from today (negative: overdue). */
  daysLeft: number
}

/**
 * The buyer's withdrawal and reversal requests, with the shop's deadline; an open one is accepted
 * (the order is cancelled and its units come back; the money goes back as the note says, or through
 * Mercado Pago) or refused with a reason the buyer reads. Without `canDecide` (a role without
 * `orders`: Bodega) they are only read.
 */
export function ClaimsSection({
  claims,
  refundByHand,
  canDecide,
  busy,
}: {
  claims: DeskClaim[]
  /** Cash on delivery: no provider to refund through, the owner writes how the money went back. */
  refundByHand: boolean
  canDecide: boolean
  busy: boolean
}) {
  return (
    <Section title="Solicitudes del cliente" testId="order-claims">
      <ul className="flex flex-col gap-4">
        {claims.map((claim) => (
          <li key={claim.id} className="flex flex-col gap-2 text-sm" data-testid="order-claim">
            <p>
              <strong>{REQUEST_NAMES[claim.kind]}</strong>
              {` — ${CLAIM_STATUS_LABELS[claim.status].toLowerCase()}. Recibida el ${spanishDay(claim.requestedDay)}.`}
              {claim.cause ? ` Motivo: ${REVERSAL_CAUSE_LABELS[claim.cause]}.` : ''}
              {claim.learnedOn ? ` El cliente lo supo el ${spanishDay(claim.learnedOn)}.` : ''}
            </p>
            {claim.description ? <p className="text-gray-700">“{claim.description}”</p> : null}
            {claim.status === 'pendiente' ? (
              <>
                <p
                  className={claim.daysLeft < 0 ? 'font-semibold text-red-700' : 'text-amber-800'}
                  data-testid="claim-deadline"
                >
                  Plazo: {spanishDay(claim.deadline)}
                  {claim.daysLeft < 0
                    ? ' (vencido)'
                    : claim.daysLeft === 0
                      ? ' (vence hoy)'
                      : claim.daysLeft === 1
                        ? ' (falta 1 día)'
                        : ` (faltan ${claim.daysLeft} días)`}
                  .{' '}
                  {claim.kind === 'retracto'
                    ? 'El dinero se devuelve completo dentro de 30 días calendario.'
                    : 'El emisor del medio de pago resuelve en 15 días hábiles.'}
                </p>
                {canDecide ? (
                  <>
                    <AdminForm method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
                      <input type="hidden" name="intent" value="reclamo-aceptar" />
                      <input type="hidden" name="claimId" value={claim.id} />
                      {refundByHand ? (
                        <label className="flex flex-1 flex-col gap-1">
                          <span className="font-medium">Cómo devolviste el dinero</span>
                          <input
                            name="refundNote"
                            required
                            maxLength={CLAIM_TEXT_MAX}
                            placeholder="Transferencia Nequi del 27/11"
                            className={inputClass}
                          />
                        </label>
                      ) : null}
                      <button type="submit" className={primaryButtonClass} disabled={busy}>
                        {/* A reversal is made by the card's issuer: the shop only accepts it. */}
                        {claim.kind === 'retracto'
                          ? 'Aceptar y registrar la devolución'
                          : 'Aceptar la reversión'}
                      </button>
                    </AdminForm>
                    <AdminForm method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
                      <input type="hidden" name="intent" value="reclamo-rechazar" />
                      <input type="hidden" name="claimId" value={claim.id} />
                      <label className="flex flex-1 flex-col gap-1">
                        <span className="font-medium">Motivo del rechazo</span>
                        <input name="reason" required maxLength={CLAIM_TEXT_MAX} className={inputClass} />
                      </label>
                      <button type="submit" className={dangerButtonClass} disabled={busy}>
                        Rechazar
                      </button>
                    </AdminForm>
                  </>
                ) : null}
              </>
            ) : (
              <p className="text-gray-700" data-testid="claim-decision">
                {claim.status === 'aceptada' ? 'Aceptada' : 'Rechazada'} por {claim.decidedBy}.
                {claim.decisionNote
                  ? ` ${claim.status === 'aceptada' ? 'Devolución' : 'Motivo'}: ${claim.decisionNote.replace(/\.$/, '')}.`
                  : ''}
              </p>
            )}
          </li>
        ))}
      </ul>
    </Section>
  )
}
