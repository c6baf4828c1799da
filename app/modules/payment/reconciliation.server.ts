import { and, asc, desc, eq, gte, inArray, isNull, lt, type SQL } from 'drizzle-orm'
import type { Db, DbOrTx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { recordOrderEvent } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import type { OrderStatus } from '#app/modules/order/status.ts'
import { bogotaDayRange, bogotaStamp } from '#app/utils/bogota-days.ts'
import { formatCOP } from '#app/utils/money.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { csvPesos, spreadsheetCsv, type CsvCell } from '#app/utils/spreadsheet-csv.ts'
import {
  PAYMENT_FLAG_MESSAGES,
  PAYMENT_PROVIDER_LABELS,
  PAYMENTS_MESSAGES,
  paymentMethodLabel,
  paymentRangeMessage,
  paymentStatusLabel,
  REFUNDABLE_PROVIDERS,
  refundStatusLabel,
  type PaymentFilters,
  type PaymentFlag,
  type RefundableProvider,
} from './reconciliation.ts'
import { payments, type PaymentLedgerProvider } from './schema.ts'

/**
 * "Pagos": reads the payments ledger for reconciliation against the providers' reports, flags the
 * payments a person must look at (an order paid twice, or paid once cancelled) and starts their
 * refunds. The refund itself is the `payment-refund` job (ledger-refund.server.ts).
 */

export type LedgerRow = {
  provider: PaymentLedgerProvider
  providerPaymentId: string
  orderId: string
  orderNumber: number
  orderStatus: OrderStatus
  method: string | null
  status: string
  /** Centavos. */
  amount: number
  /** What the provider kept, where it reports it (centavos). */
  fee: number | null
  /** amount − fee, only when the fee is known. */
  net: number | null
  refundId: string | null
  refundStatus: string | null
  /** "2026-11-23 18:05", Bogotá time. */
  created: string
  updated: string
  flag: PaymentFlag | null
  /** A refund can be started from "Pagos" now: flagged, approved, online, none started yet. */
  refundable: boolean
}

/** Approved payments per provider in the range: what the provider's report should add up to. */
export type ProviderTotals = {
  provider: PaymentLedgerProvider
  label: string
  /** Approved payments. */
  count: number
  amount: number
  /** The fees reported; a payment without one adds nothing. */
  fee: number
  net: number
}

export type PaymentsList = {
  filters: PaymentFilters
  rows: LedgerRow[]
  totals: ProviderTotals[]
}

const keyOf = (provider: string, paymentId: string) => `${provider}\u0000${paymentId}`

/**
 * The flag of every approved payment of the orders `orderScope` picks, whatever its date or
 * provider: the payment an order follows (its `paymentId`; the first approved one when it names
 * none of them) is its payment, every other approved one is paid twice; any approved payment of a
 * cancelled order is money to give back.
 */
async function flagsOf(db: DbOrTx, orderScope: SQL): Promise<Map<string, PaymentFlag>> {
  const approved = await db
    .select({
      provider: payments.provider,
      providerPaymentId: payments.providerPaymentId,
      orderId: payments.orderId,
      orderStatus: orders.status,
      orderPaymentId: orders.paymentId,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.status, 'approved'), orderScope))
    .orderBy(asc(payments.createdAt), asc(payments.provider), asc(payments.providerPaymentId))
  const byOrder = new Map<string, typeof approved>()
  for (const payment of approved)
    byOrder.set(payment.orderId, [...(byOrder.get(payment.orderId) ?? []), payment])
  const flags = new Map<string, PaymentFlag>()
  for (const group of byOrder.values()) {
    const [first] = group
    if (!first) continue
    if (first.orderStatus === 'cancelado') {
      for (const payment of group)
        flags.set(keyOf(payment.provider, payment.providerPaymentId), 'paid-after-cancel')
      continue
    }
    const kept = group.find((payment) => payment.providerPaymentId === first.orderPaymentId) ?? first
    for (const payment of group) {
      if (payment !== kept) flags.set(keyOf(payment.provider, payment.providerPaymentId), 'paid-twice')
    }
  }
  return flags
}

const isRefundable = (row: { provider: string; status: string; refundStatus: string | null }) =>
  (REFUNDABLE_PROVIDERS as readonly string[]).includes(row.provider) &&
  row.status === 'approved' &&
  row.refundStatus === null

function inRange(filters: PaymentFilters) {
  const { start, end } = bogotaDayRange(filters)
  const conditions = [gte(payments.createdAt, start!), lt(payments.createdAt, end!)]
  if (filters.provider !== 'todos') conditions.push(eq(payments.provider, filters.provider))
  return and(...conditions)!
}

const ledgerColumns = {
  provider: payments.provider,
  providerPaymentId: payments.providerPaymentId,
  orderId: payments.orderId,
  orderNumber: orders.number,
  orderStatus: orders.status,
  method: payments.method,
  status: payments.status,
  amount: payments.amount,
  fee: payments.fee,
  refundId: payments.refundId,
  refundStatus: payments.refundStatus,
  createdAt: payments.createdAt,
  updatedAt: payments.updatedAt,
}

/** Ledger rows with their orders, newest first. */
function selectLedger(db: DbOrTx, where: SQL) {
  return db
    .select(ledgerColumns)
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(where)
    .orderBy(desc(payments.createdAt), asc(payments.provider), asc(payments.providerPaymentId))
}
type Selected = Awaited<ReturnType<typeof selectLedger>>[number]

function rowOf(row: Selected, flags: Map<string, PaymentFlag>): LedgerRow {
  const flag =
    row.status === 'approved' ? (flags.get(keyOf(row.provider, row.providerPaymentId)) ?? null) : null
  return {
    provider: row.provider,
    providerPaymentId: row.providerPaymentId,
    orderId: row.orderId,
    orderNumber: row.orderNumber,
    orderStatus: row.orderStatus,
    method: row.method,
    status: row.status,
    amount: row.amount,
    fee: row.fee,
    net: row.fee === null ? null : row.amount - row.fee,
    refundId: row.refundId,
    refundStatus: row.refundStatus,
    created: bogotaStamp(row.createdAt),
    updated: bogotaStamp(row.updatedAt),
    flag,
    refundable: flag !== null && isRefundable(row),
  }
}

function totalsOf(rows: LedgerRow[]): ProviderTotals[] {
  const totals = new Map<PaymentLedgerProvider, ProviderTotals>()
  for (const row of rows) {
    if (row.status !== 'approved') continue
    const sum = totals.get(row.provider) ?? {
      provider: row.provider,
      label: PAYMENT_PROVIDER_LABELS[row.provider],
      count: 0,
      amount: 0,
      fee: 0,
      net: 0,
    }
    sum.count += 1
    sum.amount += row.amount
    sum.fee += row.fee ?? 0
    sum.net = sum.amount - sum.fee
    totals.set(row.provider, sum)
  }
  const order = Object.keys(PAYMENT_PROVIDER_LABELS)
  return [...totals.values()].sort((a, b) => order.indexOf(a.provider) - order.indexOf(b.provider))
}

/**
 * Every ledger payment made in a Bogotá day range (by when we first heard of it), newest first,
 * with its order, net amount and flag, and the approved totals per provider. Empty for a range
 * "Ventas" would refuse (the page says why before asking).
 */
export async function listPayments(db: DbOrTx, filters: PaymentFilters): Promise<PaymentsList> {
  if (paymentRangeMessage(filters)) return { filters, rows: [], totals: [] }
  const where = inRange(filters)
  const selected = await selectLedger(db, where)
  const flags = selected.some((row) => row.status === 'approved')
    ? await flagsOf(
        db,
        inArray(payments.orderId, db.select({ id: payments.orderId }).from(payments).where(where)),
      )
    : new Map<string, PaymentFlag>()
  const rows = selected.map((row) => rowOf(row, flags))
  return { filters, rows, totals: totalsOf(rows) }
}

/** Every payment the ledger holds for one order, newest first, flagged (the order desk's list). */
export async function orderLedgerPayments(db: DbOrTx, orderId: string): Promise<LedgerRow[]> {
  const selected = await selectLedger(db, eq(payments.orderId, orderId))
  const flags = selected.some((row) => row.status === 'approved')
    ? await flagsOf(db, eq(payments.orderId, orderId))
    : new Map<string, PaymentFlag>()
  return selected.map((row) => rowOf(row, flags))
}

/** One ledger payment with its flag (refunds are decided on it), or null. */
export async function readLedgerPayment(
  db: DbOrTx,
  provider: PaymentLedgerProvider,
  paymentId: string,
): Promise<LedgerRow | null> {
  const [row] = await selectLedger(
    db,
    and(eq(payments.provider, provider), eq(payments.providerPaymentId, paymentId))!,
  )
  if (!row) return null
  const flags = row.status === 'approved' ? await flagsOf(db, eq(payments.orderId, row.orderId)) : new Map()
  return rowOf(row, flags)
}

/**
 * "Reembolsar" on a flagged payment: marks its refund `requested` and enqueues the `payment-refund`
 * job in the same transaction, so the job exists only if the mark does and a second click (another
 * tab, a retried post) finds the refund already asked for. Only flagged, approved Mercado Pago and
 * Wompi payments without a refund yet qualify; anything else is a Spanish refusal.
 */
export async function startPaymentRefund(
  db: Db,
  jobs: JobQueue,
  /** `orderId`: from an order's desk, the payment must be that order's. */
  input: { provider: RefundableProvider; paymentId: string; by: string; orderId?: string },
): Promise<{ orderId: string; orderNumber: number; amount: number; message: string }> {
  const { provider, paymentId, by } = input
  if (!(REFUNDABLE_PROVIDERS as readonly string[]).includes(provider)) {
    throw new Refusal(PAYMENTS_MESSAGES.byHand, { status: 409 })
  }
  return db.transaction(async (tx) => {
    const row = await readLedgerPayment(tx, provider, paymentId)
    if (!row || (input.orderId && row.orderId !== input.orderId)) {
      throw new Refusal(PAYMENTS_MESSAGES.notFound, { status: 404 })
    }
    if (row.refundStatus !== null) {
      throw new Refusal(PAYMENTS_MESSAGES.alreadyStarted(row.refundStatus), { status: 409 })
    }
    if (row.status !== 'approved') throw new Refusal(PAYMENTS_MESSAGES.notApproved, { status: 409 })
    if (!row.flag) throw new Refusal(PAYMENTS_MESSAGES.notFlagged, { status: 409 })

    // Only the post that turns the mark on enqueues: a concurrent one finds it set and is refused.
    const marked = await tx
      .update(payments)
      .set({ refundStatus: 'requested' })
      .where(
        and(
          eq(payments.provider, provider),
          eq(payments.providerPaymentId, paymentId),
          isNull(payments.refundStatus),
        ),
      )
      .returning({ orderId: payments.orderId })
    if (marked.length === 0) {
      throw new Refusal(PAYMENTS_MESSAGES.alreadyStarted('requested'), { status: 409 })
    }
    const label = PAYMENT_PROVIDER_LABELS[provider]
    const amount = formatCOP(row.amount)
    await recordOrderEvent(
      tx,
      row.orderId,
      'refund-requested',
      PAYMENTS_MESSAGES.requestedEvent(label, amount, paymentId),
      { provider, paymentId, amount: row.amount, flag: row.flag },
      by,
    )
    await jobs.send(tx, 'payment-refund', { provider, paymentId, orderId: row.orderId, by })
    return {
      orderId: row.orderId,
      orderNumber: row.orderNumber,
      amount: row.amount,
      message: PAYMENTS_MESSAGES.started(label, amount, row.orderNumber),
    }
  })
}

/** The CSV's columns: one row per payment of the list, then the approved totals per provider. */
export const PAYMENTS_CSV_COLUMNS = [
  'Fecha',
  'Actualizado',
  'Pedido',
  'Estado del pedido',
  'Proveedor',
  'Id del pago',
  'Medio',
  'Estado',
  'Monto',
  'Comisión',
  'Neto',
  'Revisar',
  'Reembolso',
] as const

/**
 * The list as CSV (`spreadsheetCsv`, like the other exports): every payment, then one line per
 * provider with its approved totals. Null for a range the list refuses.
 */
export async function paymentsCsv(db: DbOrTx, filters: PaymentFilters): Promise<string | null> {
  if (paymentRangeMessage(filters)) return null
  const { rows, totals } = await listPayments(db, filters)
  const records: CsvCell[][] = [
    ...rows.map((row): CsvCell[] => [
      row.created,
      row.updated,
      row.orderNumber,
      row.orderStatus,
      PAYMENT_PROVIDER_LABELS[row.provider],
      row.providerPaymentId,
      paymentMethodLabel(row.method),
      paymentStatusLabel(row.status),
      csvPesos(row.amount),
      row.fee === null ? '' : csvPesos(row.fee),
      row.net === null ? '' : csvPesos(row.net),
      row.flag ? PAYMENT_FLAG_MESSAGES[row.flag] : '',
      row.refundStatus ? refundStatusLabel(row.refundStatus) : '',
    ]),
    ...totals.map((total): CsvCell[] => [
      `${filters.from} a ${filters.to}`,
      '',
      '',
      '',
      total.label,
      `Total aprobados: ${total.count}`,
      '',
      '',
      csvPesos(total.amount),
      csvPesos(total.fee),
      csvPesos(total.net),
      '',
      '',
    ]),
  ]
  return spreadsheetCsv(PAYMENTS_CSV_COLUMNS, records)
}
