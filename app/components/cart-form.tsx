import type { FormEvent, ReactNode } from 'react'
import type { CartIntent } from '#app/modules/cart/cart.ts'
import { CART_PATH } from '#app/utils/paths.ts'

/**
 * A storefront cart action as a real form: tapped before the page's scripts run, or without
 * JavaScript, the browser posts it to the cart (which applies it and says how it went); once the
 * page has hydrated, `onIntent` handles it in place and nothing is posted. A tap is handled by one
 * side or the other, never both: the browser's own submission is what the handler prevents.
 */
export function CartForm({
  sku,
  onIntent,
  className,
  children,
}: {
  sku: string
  /**
   * The intent of the button that sent the form (the `set` button when Enter sent it), and the form's
   * fields as they are in the page: typed before hydration, they are not in React's state.
   */
  onIntent: (intent: CartIntent, fields: FormData) => void
  className?: string
  children: ReactNode
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const submitter = (event.nativeEvent as SubmitEvent).submitter
    if (submitter instanceof HTMLButtonElement)
      onIntent(submitter.value as CartIntent, new FormData(event.currentTarget))
  }
  return (
    <form method="post" action={CART_PATH} className={className} onSubmit={submit}>
      <input type="hidden" name="sku" value={sku} />
      {children}
    </form>
  )
}
