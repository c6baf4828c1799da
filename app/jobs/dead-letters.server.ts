import type { Database } from '#app/db/client.server.ts'
import { isUuid } from '#app/utils/ids.ts'
import { DEAD_LETTER_QUEUE } from './jobs.server.ts'
import { isStockChannel, STOCK_CHANNEL_NAMES } from './stock-channels.ts'

/** Dead letters nobody has dismissed yet (no worker takes them: they wait in "created"). */
const WAITING_STATES = `state in ('created', 'retry', 'active')`

export const FAILED_JOB_MESSAGES = {
  dismissed: 'Tarea marcada como revisada.',
  dismissFailed: 'No se encontró la tarea: quizá ya se marcó como revisada.',
} as const

/** A background job that ran out of retries (pg-boss put a copy in the dead-letter queue). */
export type FailedJob = {
  id: string
  /** What did not happen, in Spanish ("Aviso de WhatsApp del pedido #1001 a 573001112233"). */
  description: string
  /** The last error, as the job reported it. */
  error: string | null
  /** When it gave up. */
  failedAt: Date
}

type Row = {
  id: string
  data: Record<string, unknown> | null
  output: unknown
  created_on: Date | string
  order_number: number | null
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)

/** What a dead job was doing, in Spanish, told by its payload (the dead-letter copy keeps no queue name). */
export function describeFailedJob(data: Record<string, unknown> | null, orderNumber: number | null): string {
  const orderId = text(data?.orderId)
  const order = orderNumber ? `#${orderNumber}` : orderId
  if (orderId && text(data?.to)) return `Aviso de WhatsApp del pedido ${order} a ${text(data?.to)}`
  if (!orderId && data?.claimId !== undefined && text(data?.to)) {
    return `Aviso de WhatsApp de una solicitud de retracto o reversión a ${text(data?.to)}`
  }
  if (orderId && data?.claimId !== undefined) return `Reembolso en Mercado Pago del pedido ${order}`
  const provider = text(data?.provider) === 'wompi' ? 'Wompi' : 'Mercado Pago'
  if (orderId && text(data?.paymentId)) {
    return `Reembolso en ${provider} del pago ${text(data?.paymentId)} del pedido ${order}`
  }
  if (orderId && text(data?.trigger)) return `Factura electrónica del pedido ${order}`
  if (orderId && text(data?.by)) return `Guía de transportadora del pedido ${order}`
  if (orderId && Object.keys(data ?? {}).length === 1) return `Nota crédito del pedido ${order}`
  if (text(data?.paymentId)) return `Notificación de pago de ${provider} ${text(data?.paymentId)}`
  const channel = text(data?.channel)
  if (channel && text(data?.sku)) {
    return `Sincronización del stock de ${text(data?.sku)} con ${isStockChannel(channel) ? STOCK_CHANNEL_NAMES[channel] : channel}`
  }
  return 'Tarea en segundo plano'
}

function errorOf(output: unknown): string | null {
  if (typeof output === 'string') return output
  if (output && typeof output === 'object') {
    const message = (output as { message?: unknown; value?: unknown }).message
    if (typeof message === 'string') return message
    const value = (output as { value?: unknown }).value
    if (typeof value === 'string') return value
  }
  return null
}

/**
 * The newest failed background jobs waiting in the dead-letter queue (design.md: failed
 * side effects are "dead-lettered where an admin can see it"). Before the job queue has created its
 * tables there is nothing to show.
 */
export async function listFailedJobs(
  database: Pick<Database, 'executeSql'>,
  limit = 10,
): Promise<{ items: FailedJob[]; total: number }> {
  const { rows: ready } = await database.executeSql(
    `select to_regclass('pgboss.job') is not null as ready`,
    [],
  )
  if (!(ready[0] as { ready?: boolean } | undefined)?.ready) return { items: [], total: 0 }
  const waiting = `j.name = $1 and j.${WAITING_STATES}`
  const { rows } = await database.executeSql(
    `select j.id, j.data, j.output, j.created_on, o.number as order_number
       from pgboss.job j left join orders o on o.id = j.data->>'orderId'
      where ${waiting}
      order by j.created_on desc, j.id
      limit $2`,
    [DEAD_LETTER_QUEUE, limit],
  )
  const { rows: counted } = await database.executeSql(
    `select count(*)::int as total from pgboss.job j where ${waiting}`,
    [DEAD_LETTER_QUEUE],
  )
  return {
    total: (counted[0] as { total: number } | undefined)?.total ?? 0,
    items: (rows as Row[]).map((row) => ({
      id: row.id,
      description: describeFailedJob(row.data, row.order_number),
      error: errorOf(row.output),
      failedAt: new Date(row.created_on),
    })),
  }
}

/**
 * An admin has dealt with a failed job (e.g. phoned the customer): it leaves the list. The job is
 * completed, not deleted, so pg-boss keeps it until its normal retention. False when it is gone.
 */
export async function dismissFailedJob(database: Pick<Database, 'executeSql'>, id: string): Promise<boolean> {
  if (!isUuid(id)) return false
  const { rows } = await database.executeSql(
    `update pgboss.job set state = 'completed', completed_on = now()
      where name = $1 and id = $2 and ${WAITING_STATES}
      returning id`,
    [DEAD_LETTER_QUEUE, id],
  )
  return rows.length > 0
}
