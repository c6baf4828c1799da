import type { CartQuote } from '#app/modules/checkout/cart-quote.ts'

/** What the discount code's buttons ask of the cart's or the checkout's action. */
export const CODE_INTENTS = { apply: 'apply-code', remove: 'remove-code' } as const

/**
 * "Código de descuento": the field, "Aplicar" and, once a code is kept, "Quitar"; below it, what
 * became of the code (applied, or why not, as the server worded it). Its buttons post the form it
 * sits in, so it works without JavaScript: the cart's own small form, or the checkout's order form.
 */
export function DiscountCode({
  code,
  outcome,
  error,
}: {
  /** What the field shows: the code kept, or what was typed. */
  code: string
  outcome: CartQuote['codeOutcome']
  /** A refusal of the order for its code (shown instead of the outcome). */
  error?: string
}) {
  const message = error ?? outcome?.message
  const refused = Boolean(error) || outcome?.applied === false
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="discount-code">
      <label htmlFor="discount_code" className="font-medium">
        Código de descuento
      </label>
      <div className="flex gap-2">
        <input
          key={code}
          id="discount_code"
          name="discount_code"
          defaultValue={code}
          maxLength={40}
          autoComplete="off"
          autoCapitalize="characters"
          aria-invalid={refused}
          aria-describedby={message ? 'discount_code-note' : undefined}
          className="w-full min-w-0 flex-1 rounded-xl border border-brand-100 bg-white px-3 py-2 uppercase aria-invalid:border-red-500"
        />
        <button
          type="submit"
          name="intent"
          value={CODE_INTENTS.apply}
          formNoValidate
          className="rounded-full border border-brand-600 px-4 py-2 font-medium text-brand-700 hover:bg-brand-50"
        >
          Aplicar
        </button>
        {code ? (
          <button
            type="submit"
            name="intent"
            value={CODE_INTENTS.remove}
            formNoValidate
            className="rounded-full px-3 py-2 font-medium text-gray-600 underline hover:text-red-600"
          >
            Quitar
          </button>
        ) : null}
      </div>
      {message ? (
        <p
          id="discount_code-note"
          role={refused ? 'alert' : 'status'}
          className={refused ? 'text-red-600' : 'text-green-800'}
          data-testid="discount-code-note"
        >
          {message}
        </p>
      ) : null}
    </div>
  )
}
