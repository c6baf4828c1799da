// Loaded by the checkout page on the first change of a field, never on the first visit;
// it imports nothing, so loading it needs no other chunk.

/** Where the checkout page sends what the shopper typed (app/routes/api/checkout-draft.ts). */
export const CHECKOUT_DRAFT_PATH = '/api/pedido-borrador'

/** The checkout's fields a draft keeps (the cart goes as the form's `cart`, or the cookie). */
export const DRAFT_FIELDS = ['phone', 'name', 'email', 'consent', 'cart'] as const

/** The fields whose change is worth keeping. */
const KEPT_ON_CHANGE = new Set(['phone', 'name', 'email', 'consent'])
/** Typing is sent once the shopper pauses this long, not at every keystroke. */
const TYPING_PAUSE_MS = 800
let typing: ReturnType<typeof setTimeout> | undefined

/**
 * After a change of `field`: the box at once (unticking it forgets), typed text once the shopper
 * pauses; a pending send is replaced by the newer one.
 */
export function keepDraftSoon(form: HTMLFormElement, field: EventTarget) {
  const changed = (field as HTMLInputElement).name
  if (!KEPT_ON_CHANGE.has(changed)) return
  clearTimeout(typing)
  if (changed === 'consent') keepDraft(form, changed)
  else typing = setTimeout(() => keepDraft(form, changed), TYPING_PAUSE_MS)
}

/**
 * Sends the form's draft fields after `changed` changed: the server keeps them only with a phone and
 * the authorization ticked, and forgets them when it is unticked. Without the authorization only its
 * own change is sent (to forget), so a field left before ticking it never races the draft it makes.
 * Nothing is waited for or shown.
 */
function keepDraft(form: HTMLFormElement, changed: string) {
  const all = new FormData(form)
  if (all.get('consent') !== 'on' && changed !== 'consent') return
  const draft = new FormData()
  for (const name of DRAFT_FIELDS) {
    const value = all.get(name)
    if (value !== null) draft.set(name, value)
  }
  if (!navigator.sendBeacon?.(CHECKOUT_DRAFT_PATH, draft))
    void fetch(CHECKOUT_DRAFT_PATH, { method: 'POST', body: draft, keepalive: true }).catch(() => {})
}
