import { Form, useNavigation } from 'react-router'

/** The outcomes a simulated provider page offers, as its buttons name them. */
export const SIMULATED_CHOICES = {
  approved: 'Aprobar pago',
  pending: 'Dejar pendiente',
  rejected: 'Rechazar pago',
} as const
export type SimulatedChoiceName = keyof typeof SIMULATED_CHOICES

/**
 * The simulated Mercado Pago and Wompi pages' buttons: one plain post (`resultado`) per outcome,
 * disabled while a choice is on its way so one click is one payment.
 */
export function SimulatedPaymentChoices({ action }: { action?: string }) {
  const submitting = useNavigation().state !== 'idle'
  return (
    <Form method="post" action={action} className="flex w-full flex-col gap-2">
      {(Object.keys(SIMULATED_CHOICES) as SimulatedChoiceName[]).map((choice) => (
        <button
          key={choice}
          type="submit"
          name="resultado"
          value={choice}
          disabled={submitting}
          className={`rounded-full px-6 py-3 font-semibold disabled:opacity-60 ${choice === 'approved' ? 'bg-brand-600 text-white hover:bg-brand-700' : 'border border-brand-600 text-brand-700 hover:bg-brand-50'}`}
        >
          {SIMULATED_CHOICES[choice]}
        </button>
      ))}
    </Form>
  )
}
