import { randomUUID } from 'node:crypto'
import { Fragment, useEffect, useRef, useState, type ChangeEvent } from 'react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { OrderByWhatsapp } from './checkout/order-by-whatsapp.tsx'
import { whatsappLink } from '#app/utils/whatsapp-link.ts'
import { orderByWhatsappText } from '#app/modules/checkout/order-by-whatsapp.server.ts'
import { FieldError, PlaceFields, type MunicipalityOption } from './checkout/place-fields.tsx'
import { CODE_INTENTS, DiscountCode } from '#app/components/discount-code.tsx'
import { toast } from '#app/components/toast.tsx'
import { LineSummary, Totals } from '#app/components/totals.tsx'
import { usePricedCart } from '#app/components/use-cart-products.ts'
import { useCartLines } from '#app/modules/cart/cart-store.ts'
import { cartOfRequest } from '#app/modules/cart/cart.server.ts'
import { cleanLines } from '#app/modules/cart/cart.ts'
import { cartQuoteOf, quoteCart } from '#app/modules/checkout/cart-quote.server.ts'
import type { CartQuote } from '#app/modules/checkout/cart-quote.ts'
import { codeCookieAssignment, readCodeCookie } from '#app/modules/promotions/code-cookie.ts'
import { normalizeCode } from '#app/modules/promotions/rules.ts'
import { CheckoutRefused } from '#app/modules/checkout/checkout.server.ts'
import { readCheckoutForm } from '#app/modules/checkout/form.server.ts'
import { keepCheckoutDraft } from '#app/modules/checkout/drafts.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import {
  CHECKOUT_WORDS,
  PLACE_FIELD_WORDS,
  CHECKOUT_TEXT_FIELDS,
  checkoutValuesOf,
  type CheckoutFormValues,
} from '#app/modules/checkout/form-values.ts'
import { trackAdEvent } from '#app/modules/marketing/ad-events.ts'
import { quoteForForm, submitCheckout } from '#app/modules/checkout/submit.server.ts'
import { liveQuotesOn, quoteNote, type CheckoutShippingQuote } from '#app/modules/carriers/quote.server.ts'
import type { ShippingQuoteAnswer } from '#app/routes/api/shipping-quote.ts'
import { checkoutTracking } from '#app/modules/marketing/events.server.ts'
import { campaignOfOrder } from '#app/modules/analytics/campaign.ts'
import { CHECKOUT_MESSAGES } from '#app/modules/checkout/messages.ts'
import { CHECKOUT_PAYMENT_LABELS } from '#app/modules/checkout/payment-methods.ts'
import { offeredPaymentMethods } from '#app/modules/checkout/payment-methods.server.ts'
import { normalizePhone, type CheckoutErrors } from '#app/modules/checkout/validators.ts'
import { rulesForPlace, type ShippingPlace, type ShippingRules } from '#app/modules/cart/shipping.ts'
import { DEPARTMENT_NAMES, departmentNamed } from '#app/modules/places/departments.ts'
import { municipalitiesOf } from '#app/modules/places/places.server.ts'
import { IDENTIFICATION_TYPES } from '#app/modules/order/customer-fields.ts'
import { getStoreInfo, readShippingZones, readStoreShipping } from '#app/modules/settings/settings.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { failureAnswer, NO_SERVER_MESSAGE, readActionAnswer } from '#app/utils/action-answer.ts'
import { failureOf } from '#app/utils/answer.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import type { Route } from './+types/checkout'
import { DATA_POLICY_PATH } from '#app/utils/paths.ts'
import type { TrackedElement } from '#app/modules/analytics/track-names.ts'

export const meta: Route.MetaFunction = () => [
  { title: 'Finalizar pedido' },
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request, context }: Route.LoaderArgs) {
  const { checkout, reads, env, carriers } = servicesOf(context)
  const cookieHeader = request.headers.get('Cookie')
  const rendered = await cartOfRequest(reads, cookieHeader)
  const shipping = await readStoreShipping(reads.db, env)
  // The code kept by the cart (or an earlier "Aplicar"), in the field and in the summary's rows.
  const code = readCodeCookie(cookieHeader)
  const quote = await quoteCart(reads.db, { lines: rendered.lines, code, shipping })
  return {
    // The cart from its cookie: the summary shows before the scripts run, and without them.
    rendered: { ...rendered, quote: cartQuoteOf(quote) },
    code,
    // The ways to pay offered now ("Pagos" in "Configuraciones", and the providers configured).
    // Worded here: the labels stay out of the page's first-visit JavaScript.
    paymentMethods: (await offeredPaymentMethods(reads.db, checkout.onlinePayments)).map((method) => ({
      method,
      label: CHECKOUT_PAYMENT_LABELS[method],
    })),
    // A fresh key per form shown: sending this form twice (double click, resend) makes one order.
    checkoutKey: randomUUID(),
    // The shipping rules as saved now (the layout's are not reloaded on client navigation); the
    // order is still worked out again in its transaction.
    shipping,
    // Each department's or municipality's own shipping cost, for the summary once one is chosen.
    zones: await readShippingZones(reads.db),
    // Whether the summary asks /api/envio for the carrier's price once a municipality is chosen.
    liveQuotes: await liveQuotesOn({ db: reads.db, carriers, env }),
    // The selects' choices come as data: the page's first-visit JavaScript stays within budget.
    departments: DEPARTMENT_NAMES,
    identificationTypes: Object.entries(IDENTIFICATION_TYPES),
    fields: CHECKOUT_TEXT_FIELDS,
    words: CHECKOUT_WORDS,
    placeWords: PLACE_FIELD_WORDS,
  }
}

/** The municipalities of the department a posted form named, for the form shown again. */
function municipalitiesFor(departmentName: string): MunicipalityOption[] {
  const department = departmentNamed(departmentName)
  return department ? municipalitiesOf(department.code).map(({ code, name }) => ({ code, name })) : []
}

export async function action({ request, context }: Route.ActionArgs) {
  const { checkout, paymentDeps, env, marketing, rateLimits, database, carriers } = servicesOf(context)
  const posted = await requireFormData(request, { keepNul: true })
  const form = readCheckoutForm(posted, request.headers.get('Cookie'))
  const quotes = { db: database.db, carriers, env }
  // The form shown again prices shipping with the posted municipality's quote (no scripts needed),
  // within the client's allowance of quotes (past it, the flat or zone cost).
  const quoted = async () =>
    carriers && (await rateLimits.take('shippingQuote', clientAddressOf(context)))
      ? quoteForForm(quotes, form).catch(() => null)
      : null
  // What the promotions take off the posted cart, for the form shown again (any answer but an order).
  const again = async (
    errors: CheckoutErrors,
    values: CheckoutFormValues,
    status: number,
    quote: CheckoutShippingQuote | null,
    headers?: HeadersInit,
  ) => {
    // Shown again, not finished: what was typed is kept as a checkout to recover, as the page's
    // script keeps it while the shopper types (only with a phone and the authorization ticked). An
    // order sent with the box unticked forgets it; "Ver municipios" or a code before ticking it do not.
    const { phone, name, email, consent } = values
    const sentToOrder =
      intent !== 'municipios' && intent !== CODE_INTENTS.apply && intent !== CODE_INTENTS.remove
    // Within the same allowance as the page's own sends (/api/pedido-borrador).
    if ((consent || sentToOrder) && (await rateLimits.take('checkoutDraft', clientAddressOf(context))))
      await keepCheckoutDraft(database.db, { phone, name, email, consent, lines: form.lines }).catch(
        (error: unknown) => logger.warn({ err: error }, '[pedido sin terminar] no se guardó'),
      )
    const rules = await readStoreShipping(database.db, env)
    const priced = await formQuote(database.db, rules, { ...form, values }, quote)
    const whatsappOrder = errors.offerWhatsapp
      ? whatsappLink(
          (await getStoreInfo(database.db, env)).whatsappNumber,
          await orderByWhatsappText(database.db, cleanLines(form.lines), priced.total),
        )
      : null
    return refusedCheckout(errors, values, status, quote, cartQuoteOf(priced), whatsappOrder, headers)
  }
  const intent = posted.get('intent')
  if (intent === 'municipios') {
    // "Ver municipios" (no scripts): the form again with its department's list; no order.
    return again({ form: [], fields: {} }, form.values, 200, await quoted())
  }
  const secure = new URL(request.url).protocol === 'https:'
  if (intent === CODE_INTENTS.apply || intent === CODE_INTENTS.remove) {
    // "Aplicar" or "Quitar" (with or without scripts): the form again, priced with the code (kept
    // in its cookie, as the cart keeps it); no order.
    const values = {
      ...form.values,
      discount_code: intent === CODE_INTENTS.apply ? normalizeCode(form.values.discount_code) : '',
    }
    const cookie = codeCookieAssignment(values.discount_code.slice(0, 40), secure)
    return again({ form: [], fields: {} }, values, 200, await quoted(), { 'Set-Cookie': cookie })
  }
  if (normalizeCode(form.values.discount_code) !== String(posted.get('priced_code') ?? '')) {
    // A code the summary was not priced with: the shopper sees its total before any order.
    return again({ form: [CHECKOUT_MESSAGES.codeChanged], fields: {} }, form.values, 409, await quoted())
  }
  try {
    await rateLimits.require('checkout', clientAddressOf(context))
    const next = await submitCheckout(
      { checkout, payments: paymentDeps, publicUrl: env.publicUrl, quotes },
      form,
      clientAddressOf(context),
      checkoutTracking(marketing.settings, request, clientAddressOf(context)),
      campaignOfOrder(request.headers.get('Cookie')),
    )
    // The order used the code (or refused it): the cart starts without one.
    const cleared = readCodeCookie(request.headers.get('Cookie'))
    return redirect(
      next.redirectTo,
      cleared ? { headers: { 'Set-Cookie': codeCookieAssignment('', secure) } } : undefined,
    )
  } catch (thrown) {
    // Anything unexpected is logged and read as spec §8's "no answer from the server" on the form.
    const { status, message } = failureOf(thrown, request, { unexpected: CHECKOUT_MESSAGES.noServer })
    const errors = thrown instanceof CheckoutRefused ? thrown.errors : { form: [message], fields: {} }
    return again(errors, form.values, status, status === 429 ? null : await quoted())
  }
}

/**
 * What the promotions take off a posted cart with its code, shipped to the posted municipality
 * (its zone's cost or the carrier's quote): the figures the page shows, worked out as the page does.
 */
async function formQuote(
  db: Parameters<typeof quoteCart>[0],
  rules: ShippingRules,
  form: { lines: { sku: string; quantity: number }[]; values: CheckoutFormValues },
  quote: CheckoutShippingQuote | null,
) {
  const municipalityCode = form.values.municipality_code
  const place = municipalityCode ? { departmentCode: municipalityCode.slice(0, 2), municipalityCode } : null
  const quoted = quote?.municipalityCode === municipalityCode ? quote.price : null
  const shipping = rulesForPlace(rules, await readShippingZones(db), place, quoted)
  const lines = cleanLines(form.lines)
  // Priced for who the form names, as the order will be (per-customer limits).
  const phone = normalizePhone(form.values.phone)
  const customer = phone ? { phone, email: form.values.email } : null
  return quoteCart(db, { lines, code: form.values.discount_code, shipping, customer })
}

/**
 * A refused checkout: every form-level message (`messages`, listed on the form), each field's own,
 * what was typed, and `checkoutKey`, a fresh key for the form shown again. React Router does not
 * reload the loader after a refused (4xx/5xx) action, so without it the form would resend the key
 * of an order already made. `message` reads the form's messages together, or the fields' when the
 * form has none, so it always says why.
 */
function refusedCheckout(
  errors: CheckoutErrors,
  values: CheckoutFormValues,
  status: number,
  quote: CheckoutShippingQuote | null,
  promotions: CartQuote,
  /** "Hacer este pedido por WhatsApp"'s link, for an order a hold limit refused. */
  whatsappOrder: string | null,
  headers?: HeadersInit,
) {
  // A form shown again without a refusal ("Ver municipios", "Aplicar") still says something.
  const message =
    errors.form.join(' ') ||
    Object.values(errors.fields).join(' ') ||
    promotions.codeOutcome?.message ||
    CHECKOUT_MESSAGES.reviewAndConfirm
  return data(
    failureAnswer(message, {
      messages: errors.form,
      fieldErrors: errors.fields,
      values,
      municipalities: municipalitiesFor(values.department),
      checkoutKey: randomUUID(),
      whatsappOrder,
      shippingQuote: quote && {
        municipio: quote.municipalityCode,
        shipping: quote.price,
        note: quoteNote(quote),
      },
      promotions,
    }),
    { status, headers },
  )
}

/**
 * A post that gets no answer (the connection dropped, the server unreachable) keeps the form as
 * typed, says spec §8's "no answer" and keeps this form's checkout key: sent again, it makes exactly
 * one order, whether or not the first post reached the server.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const form = await request.clone().formData()
  try {
    return await serverAction()
  } catch (thrown) {
    if (!(thrown instanceof TypeError)) throw thrown
    // The page lists the message itself, and keeps the municipalities it shows.
    return failureAnswer(NO_SERVER_MESSAGE, {
      values: checkoutValuesOf(form),
      checkoutKey: String(form.get('checkout_key') ?? ''),
    })
  }
}

/**
 * A checkout begun and maybe left: what the shopper types is kept as they go, for the shop to help
 * them finish it, only with the authorization ticked (keep-draft.ts, loaded on the first keystroke).
 */
function keepDraftOnChange({ currentTarget, target }: ChangeEvent<HTMLFormElement>) {
  void import('./checkout/keep-draft.ts').then((draft) => draft.keepDraftSoon(currentTarget, target))
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const lines = useCartLines(loaderData.rendered.lines)
  const { messages, fieldErrors, values } = readActionAnswer(actionData)
  // The place a form shown again by the server names (a DANE municipality code starts with its
  // department's), so its summary prices shipping there even without scripts; with scripts the
  // fields report each change.
  const [place, setPlace] = useState<ShippingPlace | null>(() => {
    const municipalityCode = String(values?.municipality_code ?? '')
    return municipalityCode ? { departmentCode: municipalityCode.slice(0, 2), municipalityCode } : null
  })
  // The carrier's price for the chosen municipality (from the server's answer, or /api/envio with
  // scripts); until it comes, or when there is none, the flat or zone cost stands.
  type Quoted = ShippingQuoteAnswer & { municipio: string }
  const [quoted, setQuoted] = useState<Quoted | null>(
    () => (actionData && 'shippingQuote' in actionData ? actionData.shippingQuote : null) ?? null,
  )
  const code = place?.municipalityCode
  useEffect(() => {
    if (!loaderData.liveQuotes || !code) return
    let current = true
    fetch(`/api/envio?municipio=${code}`)
      .then((answer) => answer.json() as Promise<ShippingQuoteAnswer>)
      .then((answer) => current && setQuoted({ ...answer, municipio: code }))
      .catch(() => {})
    return () => {
      current = false
    }
  }, [code, loaderData.liveQuotes])
  const quote = quoted?.municipio === code && quoted?.shipping != null ? quoted : null
  const shipping = rulesForPlace(loaderData.shipping, loaderData.zones, place, quote?.shipping)
  // The code the summary is priced with: the one the server last showed the form with, else the kept one.
  const shown = actionData && 'promotions' in actionData ? actionData.promotions : null
  const discountCode = shown ? shown.code : loaderData.code
  const {
    priced,
    totals,
    pending,
    quote: promotions,
  } = usePricedCart(lines, shipping, loaderData.rendered, discountCode, shown)
  // A form shown again by the server brings its department's list (null: the post got no answer).
  const municipalities = actionData && 'municipalities' in actionData ? actionData.municipalities : null
  const navigation = useNavigation()
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST'
  const alert = useRef<HTMLDivElement>(null)
  const initiated = useRef(false)

  useEffect(() => {
    // The pixel's InitiateCheckout: once per visit of this page, when the cart is priced.
    if (initiated.current || !priced.length) return
    initiated.current = true
    trackAdEvent('InitiateCheckout', {
      currency: 'COP',
      value: totals.total / 100,
      content_ids: priced.map((item) => item.line.sku),
      content_type: 'product',
      num_items: priced.reduce((sum, item) => sum + item.quantity, 0),
    })
  }, [priced, totals.total])

  useEffect(() => {
    // Once per answer: its messages as toasts, and the focus on the list of them.
    const { messages } = readActionAnswer(actionData)
    if (!messages.length) return
    for (const message of messages) toast.error(message)
    alert.current?.focus()
  }, [actionData])

  const fieldError = (name: keyof CheckoutFormValues) => fieldErrors[name as keyof CheckoutErrors['fields']]

  // The document's type goes just before its number.
  const documentType = (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{loaderData.words.documentType}</span>
      <select
        name="identification_type"
        defaultValue={String(values?.identification_type || 'CC')}
        className="rounded-xl border border-brand-100 bg-white px-3 py-2"
      >
        {loaderData.identificationTypes.map(([code, label]) => (
          <option key={code} value={code}>
            {label}
          </option>
        ))}
      </select>
    </label>
  )

  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_22rem]">
      <Form
        method="post"
        className="flex flex-col gap-4"
        noValidate
        aria-labelledby="finalizar"
        onChange={keepDraftOnChange}
      >
        <h1 id="finalizar" className="text-2xl font-semibold">
          Finalizar pedido
        </h1>
        {messages.length ? (
          <div
            ref={alert}
            tabIndex={-1}
            role="alert"
            className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-700"
            data-testid="checkout-errors"
          >
            {messages.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
        ) : null}
        {actionData && 'whatsappOrder' in actionData && actionData.whatsappOrder ? (
          <OrderByWhatsapp href={actionData.whatsappOrder} />
        ) : null}
        <input type="hidden" name="cart" value={JSON.stringify(lines)} />
        <input type="hidden" name="checkout_key" value={actionData?.checkoutKey ?? loaderData.checkoutKey} />
        <div className="grid gap-3 sm:grid-cols-2">
          {loaderData.fields.map((field) => (
            <Fragment key={field.name}>
              {field.name === 'identification_number' ? documentType : null}
              <label className="flex flex-col gap-1 text-sm">
                <span className="font-medium">
                  {field.label}
                  {field.required ? <span aria-hidden="true"> *</span> : null}
                </span>
                <input
                  name={field.name}
                  type={field.type ?? 'text'}
                  autoComplete={field.autoComplete}
                  defaultValue={String(values?.[field.name] ?? '')}
                  aria-invalid={Boolean(fieldError(field.name))}
                  aria-describedby={fieldError(field.name) ? `${field.name}-error` : undefined}
                  required={field.required}
                  className="rounded-xl border border-brand-100 px-3 py-2 aria-invalid:border-red-500"
                />
                <FieldError id={`${field.name}-error`} error={fieldError(field.name)} />
              </label>
            </Fragment>
          ))}
          <PlaceFields
            departments={loaderData.departments}
            department={String(values?.department ?? '')}
            municipalityCode={String(values?.municipality_code ?? '')}
            municipalities={municipalities}
            errors={{
              department: fieldError('department'),
              municipality_code: fieldError('municipality_code'),
            }}
            onPlaceChange={setPlace}
            words={loaderData.placeWords}
          />
        </div>
        {/* The form's first button: Enter in a field places the order, not the code's "Aplicar". */}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
        <input type="hidden" name="priced_code" value={discountCode ?? ''} />
        <input type="hidden" name="priced_total" value={totals.total} />
        <DiscountCode
          code={String(values?.discount_code ?? loaderData.code ?? '')}
          outcome={promotions?.codeOutcome ?? null}
          error={fieldErrors.discount_code}
        />
        <fieldset className="flex flex-col gap-2 rounded-xl border border-brand-100 p-3 text-sm">
          <legend className="px-1 font-medium">{loaderData.words.paymentMethod}</legend>
          {loaderData.paymentMethods.map(({ method, label }) => (
            <label key={method} className="flex items-center gap-2">
              <input
                type="radio"
                name="payment_method"
                value={method}
                defaultChecked={(values?.payment_method || 'acordar') === method}
              />
              {label}
            </label>
          ))}
        </fieldset>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name="consent"
            defaultChecked={values?.consent}
            aria-invalid={Boolean(fieldError('consent'))}
            aria-describedby={fieldError('consent') ? 'consent-error' : undefined}
            className="mt-1"
          />
          <span>
            {loaderData.words.before}{' '}
            <Link to={DATA_POLICY_PATH} className="underline" target="_blank">
              {loaderData.words.link}
            </Link>{' '}
            {loaderData.words.after}
            {fieldError('consent') ? (
              <span id="consent-error" className="block text-red-600">
                {fieldError('consent')}
              </span>
            ) : null}
          </span>
        </label>
        <button
          type="submit"
          data-track={'confirmar-pedido' satisfies TrackedElement}
          disabled={submitting}
          className="rounded-full bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {submitting ? loaderData.words.sending : loaderData.words.confirm}
        </button>
      </Form>
      <aside className="h-fit rounded-2xl bg-brand-50 p-4" aria-label={loaderData.words.summary}>
        <h2 className="mb-3 font-semibold">{loaderData.words.yourOrder}</h2>
        {priced.length ? (
          <ul className="mb-3 flex flex-col gap-2 text-sm" data-testid="checkout-summary">
            {priced.map(({ line, product }) => (
              <LineSummary
                key={line.sku}
                title={product.name}
                quantity={line.quantity}
                unitPrice={product.finalPrice}
              />
            ))}
          </ul>
        ) : (
          <p className="mb-3 text-sm text-gray-600">{loaderData.words.emptyCart}</p>
        )}
        <Totals
          subtotal={totals.subtotal}
          shipping={totals.shipping}
          discounts={totals.discounts}
          total={totals.total}
          pending={pending}
          testIdPrefix="checkout"
          className="flex flex-col gap-1 border-t border-brand-100 pt-2 text-sm"
          totalClassName="text-base font-semibold"
        />
        {quote && totals.shipping === quote.shipping ? (
          <p className="mt-1 text-xs text-gray-600" data-testid="checkout-carrier">
            {quote.note}
          </p>
        ) : null}
      </aside>
    </div>
  )
}
