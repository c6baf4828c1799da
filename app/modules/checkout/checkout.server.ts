import { and, eq, inArray } from 'drizzle-orm'
import type { Db, Tx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { daysText, type CheckoutShippingQuote } from '#app/modules/carriers/quote.server.ts'
import { cartTotals, rulesForPlace, zoneFor, type ShippingRules } from '#app/modules/cart/shipping.ts'
import { discountedPrice } from '#app/modules/catalog/pricing.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { OutOfStock, reserveUnits } from '#app/modules/inventory/stock.server.ts'
import { keepCheckoutTracking, type CheckoutTracking } from '#app/modules/marketing/events.server.ts'
import { notifyNumbersOf } from '#app/modules/order/new-order-notice.server.ts'
import { recordOrderEvent } from '#app/modules/order/order.server.ts'
import { pricingLinesOf, quotePromotions } from '#app/modules/promotions/promotions.server.ts'
import {
  orderByCheckoutKey,
  recordPlacedOrder,
  type OrderCampaign,
  type PlacedOrder,
} from '#app/modules/order/place.server.ts'
import {
  readHoldLimits,
  readShippingRules,
  readShippingZones,
} from '#app/modules/settings/settings.server.ts'
import type { HoldLimits } from '#app/modules/settings/validators.ts'
import { formatCOP } from '#app/utils/money.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { clientNetworkOf } from '#app/utils/client-network.ts'
import { settleCheckoutDraft } from './drafts.server.ts'
import { holdLimitRefusal } from './hold-limits.server.ts'
import { CHECKOUT_MESSAGES } from './messages.ts'
import { offeredPaymentMethods } from './payment-methods.server.ts'
import type { OnlinePaymentMethod } from '#app/modules/order/payment-methods.ts'
import {
  isWholeQuantity,
  MAX_LINE_QUANTITY,
  validateCheckout,
  type CheckoutErrors,
  type CustomerInput,
} from './validators.ts'

export type CheckoutContext = {
  db: Db
  jobs: JobQueue
  /**
   * The first-run shipping rules (the environment's). The rules an order pays are read from the
   * settings inside its transaction (`readShippingRules`), so a change in "Configuraciones" applies
   * to the next order without a restart.
   */
  shipping: ShippingRules
  /** Business numbers told of each new order until the owner saves them in "Mensajes" (WHATSAPP_NOTIFY_NUMBERS). */
  notifyNumbers: string[]
  /**
   * Which online providers this deployment has (configured or simulated); "Pagos" in
   * "Configuraciones" turns each on or off, read in the order's transaction.
   */
  onlinePayments: Record<OnlinePaymentMethod, boolean>
  /**
   * What one customer may hold with unpaid, unconfirmed orders of either method: first-run defaults
   * (COD_MAX_OPEN_*); placeOrder reads the saved limits ("Configuraciones") in the order's transaction.
   */
  holdLimits: HoldLimits
}

/**
 * `created` is false when the checkout key found an order another request made: only the request
 * that created an order may undo it.
 */
export type PlaceOrderResult = { order: PlacedOrder; created: boolean }

/**
 * A checkout the shop will not take: the one refusal type, with the Spanish messages for each field
 * of the form besides its one message.
 */
export class CheckoutRefused extends Refusal {
  readonly errors: CheckoutErrors
  constructor(refusal: string | CheckoutErrors, status = 400) {
    const errors = typeof refusal === 'string' ? { form: [refusal], fields: {} } : refusal
    super(errors.form[0] ?? Object.values(errors.fields).find(Boolean) ?? 'Pedido rechazado', { status })
    this.errors = errors
  }
}

/** Merges repeated skus, so the quantity limits apply to what the order will hold of each. */
function mergeLines(lines: { sku: string; quantity: number }[]) {
  const merged = new Map<string, number>()
  for (const line of lines) merged.set(line.sku, (merged.get(line.sku) ?? 0) + line.quantity)
  return [...merged].map(([sku, quantity]) => ({ sku, quantity })).sort((a, b) => a.sku.localeCompare(b.sku))
}

/** The names of these products, in order and once each, for the shopper's messages (the sku of one we do not know). */
async function productNamesOf(db: Db, skus: string[]): Promise<string[]> {
  const unique = [...new Set(skus)]
  if (!unique.length) return []
  const rows = await db
    .select({ sku: products.sku, name: products.name })
    .from(products)
    .where(inArray(products.sku, unique))
  const names = new Map(rows.map((row) => [row.sku, row.name]))
  return unique.map((sku) => names.get(sku) ?? sku)
}

/**
 * Turns a cart into an order in one transaction: every unit is reserved through inventory (no oversell),
 * prices come from the catalogue (never from the client), and the notices are enqueued with it. A
 * cart or form the shop will not take throws `CheckoutRefused`.
 */
export async function placeOrder(
  ctx: CheckoutContext,
  input: {
    lines: { sku: string; quantity: number }[]
    customer: CustomerInput
    /** The form's one-time key: the same form sent twice gives the one order it already made. */
    checkoutKey?: string
    /** The shopper's network address (kept on the order; hold limits count by it too). */
    clientAddress?: string | null
    /** The browser's identifiers for Meta's Purchase (only with advertising consent; see marketing). */
    tracking?: CheckoutTracking | null
    /** Where the shopper came from (only with analytics consent: `campaignOfOrder`). */
    campaign?: OrderCampaign | null
    /**
     * The carrier's live quote for this cart and place, asked before the transaction (never an HTTP
     * call inside it; `checkoutShippingQuote`). It prices shipping unless the place's zone has a cost
     * of its own; null, absent or for another municipality: the flat cost.
     */
    shippingQuote?: CheckoutShippingQuote | null
    /**
     * The total the shopper's page showed (the form's summary): the order is refused, and the form
     * shown again with the new figures, when the promotions now give another one. Absent: not checked.
     */
    expectedTotal?: number
  },
): Promise<PlaceOrderResult> {
  const checkoutKey = input.checkoutKey?.trim() || undefined
  if (checkoutKey) {
    const earlier = await orderByCheckoutKey(ctx.db, checkoutKey)
    if (earlier) return { order: earlier, created: false }
  }
  // Judged before merging: 1.5 and 0.5 of one product must not add up to an order of 2.
  const lines = mergeLines(input.lines.filter((line) => isWholeQuantity(line.quantity)))
  const badQuantities = await productNamesOf(
    ctx.db,
    input.lines.filter((line) => !isWholeQuantity(line.quantity)).map((line) => line.sku),
  )
  const clientAddress = input.clientAddress?.trim().slice(0, 64) || null
  const clientNetwork = clientAddress && clientNetworkOf(clientAddress)
  const checked = validateCheckout(lines, input.customer, badQuantities)
  if (!checked.ok) throw new CheckoutRefused(checked.errors)
  const { customer } = checked
  if (lines.some((line) => line.quantity > MAX_LINE_QUANTITY)) {
    throw new CheckoutRefused(CHECKOUT_MESSAGES.overStock)
  }
  try {
    const order = await ctx.db.transaction(async (tx) => {
      const offered = await offeredPaymentMethods(tx, ctx.onlinePayments)
      if (!offered.includes(customer.payment_method)) {
        throw new CheckoutRefused(
          customer.payment_method === 'transferencia'
            ? CHECKOUT_MESSAGES.transferUnavailable
            : CHECKOUT_MESSAGES.onlineUnavailable,
        )
      }
      const known = await tx
        .select({ sku: products.sku })
        .from(products)
        .where(
          and(
            inArray(
              products.sku,
              lines.map((line) => line.sku),
            ),
            eq(products.showRetail, true),
          ),
        )
      if (known.length !== lines.length) throw new CheckoutRefused(CHECKOUT_MESSAGES.unavailable)
      const refusal = await holdLimitRefusal(
        tx,
        await readHoldLimits(tx, ctx.holdLimits),
        { phone: customer.phone, clientNetwork },
        lines.reduce((sum, line) => sum + line.quantity, 0),
      )
      if (refusal)
        throw new CheckoutRefused(
          { form: [refusal.message], fields: {}, offerWhatsapp: refusal.offerWhatsapp },
          409,
        )

      await reserveUnits(tx, ctx.jobs, lines)
      // Read after reserving: the rows are locked now, so these are the prices the order keeps.
      const rows = await tx
        .select({
          sku: products.sku,
          name: products.name,
          level1: products.priceLevel1,
          discountPercent: products.discountPercent,
          personalUse: products.personalUse,
        })
        .from(products)
        .where(
          inArray(
            products.sku,
            lines.map((line) => line.sku),
          ),
        )
      const bySku = new Map(rows.map((row) => [row.sku, row]))
      const priced = lines.map((line) => {
        const row = bySku.get(line.sku)!
        return {
          productSku: row.sku,
          title: row.name,
          quantity: line.quantity,
          unitPrice: discountedPrice(row.level1, row.discountPercent),
          personalUse: row.personalUse,
        }
      })

      const place = { departmentCode: customer.department_code, municipalityCode: customer.municipality_code }
      const zones = await readShippingZones(tx)
      // A quote for another place than the one the form names now prices nothing.
      const asked = input.shippingQuote
      const quote = asked?.municipalityCode === customer.municipality_code ? asked : null
      const rules = rulesForPlace(await readShippingRules(tx, ctx.shipping), zones, place, quote?.price)
      if (customer.payment_method === 'acordar' && !rules.cashOnDelivery) {
        throw new CheckoutRefused(
          {
            form: [CHECKOUT_MESSAGES.noCashOnDelivery(customer.city, offered.length > 1)],
            fields: {},
            offerWhatsapp: offered.length === 1,
          },
          409,
        )
      }
      const beforePromotions = cartTotals(priced, rules)
      // Priced at the order's moment, the limited promotions locked until it commits.
      const { pricing, codeRefusal } = await quotePromotions(tx, {
        lines: await pricingLinesOf(tx, lines),
        shipping: beforePromotions.shipping,
        code: customer.discount_code,
        customer: { phone: customer.phone, email: customer.email },
        lock: true,
      })
      const shownTotal = input.expectedTotal
      // A code that gives nothing is refused beside its field, unless the page already showed the
      // total without it: then the shopper confirmed exactly this order.
      if (codeRefusal && shownTotal !== pricing.total) {
        throw new CheckoutRefused({ form: [codeRefusal], fields: { discount_code: codeRefusal } }, 409)
      }
      if (shownTotal !== undefined && shownTotal !== pricing.total) {
        throw new CheckoutRefused(CHECKOUT_MESSAGES.totalChanged(formatCOP(pricing.total)), 409)
      }
      if (pricing.total === 0 && customer.payment_method !== 'acordar') {
        throw new CheckoutRefused(CHECKOUT_MESSAGES.nothingToPayOnline, 409)
      }
      const totals = {
        subtotal: pricing.subtotal,
        shipping: pricing.shipping,
        discount: pricing.discount,
        total: pricing.total,
      }
      const placed = await recordPlacedOrder(tx, {
        paymentMethod: customer.payment_method,
        customer: {
          name: customer.name,
          lastName: customer.last_name,
          identificationType: customer.identification_number ? customer.identification_type : null,
          identificationNumber: customer.identification_number,
          phone: customer.phone,
          email: customer.email,
          address: customer.address,
          city: customer.city,
          department: customer.department,
          departmentCode: customer.department_code,
          municipalityCode: customer.municipality_code,
        },
        items: priced.map((item) => ({ ...item, discount: pricing.lineDiscounts[item.productSku] ?? 0 })),
        totals,
        discounts: pricing.discounts,
        checkoutKey,
        clientAddress,
        clientNetwork,
        campaign: input.campaign,
      })
      await settleCheckoutDraft(tx, customer.phone, placed.id)

      if (quote && totals.shipping > 0 && zoneFor(zones, place)?.cost == null) {
        await recordOrderEvent(tx, placed.id, 'shipping-quoted', shippingQuotedText(quote), {
          carrier: quote.carrier,
          serviceName: quote.serviceName,
          price: quote.price,
          days: quote.days ?? null,
        })
      }
      // The business hears of every order at purchase (spec §7), whatever the payment method.
      await enqueueNewOrderNotices(ctx, tx, placed.id)
      await keepCheckoutTracking(
        tx,
        ctx.jobs,
        { id: placed.id, paymentMethod: customer.payment_method, customerEmail: customer.email },
        input.tracking,
      )
      return placed
    })
    return { order, created: true }
  } catch (error) {
    if (error instanceof CheckoutRefused) throw error
    if (error instanceof OutOfStock) throw new CheckoutRefused(CHECKOUT_MESSAGES.overStock)
    // The same form sent twice at once: the other submission made the order (and this one's
    // reservation was rolled back with its transaction).
    const twin = checkoutKey ? await orderByCheckoutKey(ctx.db, checkoutKey) : null
    if (twin) return { order: twin, created: false }
    throw error
  }
}

/** The order's timeline line for a shipping cost from a live quote. */
function shippingQuotedText(quote: CheckoutShippingQuote): string {
  const days = quote.days === undefined ? '' : ` (${daysText(quote.days)})`
  return `Envío cotizado con ${quote.carrierName}: ${formatCOP(quote.price)}${days}.`
}

/**
 * One WhatsApp job per business number, in the caller's transaction: the numbers saved in "Mensajes
 * y Notificaciones", or `ctx.notifyNumbers` (the environment's) until the owner saves them.
 */
export async function enqueueNewOrderNotices(
  ctx: Pick<CheckoutContext, 'jobs' | 'notifyNumbers'>,
  tx: Tx,
  orderId: string,
) {
  const numbers = await notifyNumbersOf(tx, ctx.notifyNumbers)
  if (!numbers.length) {
    await recordOrderEvent(
      tx,
      orderId,
      'notice-skipped',
      'Aviso por WhatsApp omitido: no hay números configurados.',
    )
    return
  }
  for (const to of numbers) {
    await ctx.jobs.send(tx, 'order-new-notice', { orderId, to })
  }
}
