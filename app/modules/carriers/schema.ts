import { sql } from 'drizzle-orm'
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { bytea } from '#app/db/columns.ts'
import { orders } from '#app/modules/order/schema.ts'
import { SHIPMENT_STATUSES, type TrackingEvent } from './provider.ts'

/**
 * Where a guía bought from the desk stands: `requested` while its job runs (`retrying` when the
 * provider did not answer and the job tries again), `failed` when the provider refused it or may
 * have bought it without saying so (the owner checks before asking again), `skipped` when no
 * carrier was configured; then the carrier's own states once bought.
 */
export const SHIPMENT_ROW_STATUSES = [
  'requested',
  'retrying',
  'failed',
  'skipped',
  ...SHIPMENT_STATUSES,
] as const
export type ShipmentRowStatus = (typeof SHIPMENT_ROW_STATUSES)[number]

/** Tracking events as kept (dates as ISO text in JSON). */
export type StoredTrackingEvent = Omit<TrackingEvent, 'at'> & { at: string }

/**
 * An order's guía with a carrier, bought through the shipping provider: one row per order (asking
 * again after a failure updates it). `events` are the carrier's, oldest first, as last polled: a
 * new one goes on the order's timeline once.
 */
export const shipments = pgTable(
  'shipments',
  {
    id: serial().primaryKey(),
    orderId: text()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text({ enum: SHIPMENT_ROW_STATUSES }).notNull(),
    /** "envia"; null when skipped. */
    provider: text(),
    /** The provider's carrier and service codes ("servientrega", "ground") and the name shown. */
    carrier: text(),
    service: text(),
    serviceName: text(),
    trackingNumber: text(),
    trackingUrl: text(),
    labelUrl: text(),
    /** The label PDF as the provider gave it, kept so "Imprimir guía" never depends on its link. */
    labelPdf: bytea(),
    providerShipmentId: text(),
    /** Centavos the provider charged for the guía. */
    price: integer(),
    /** Centavos the carrier collects from the buyer (cash on delivery); 0 when none. */
    cashOnDeliveryAmount: integer().notNull().default(0),
    /** The carrier's own words for its last state. */
    statusText: text(),
    events: jsonb().$type<StoredTrackingEvent[]>().notNull().default([]),
    /** Why it failed or was skipped, as the owner reads it on the desk. */
    providerMessage: text(),
    requestedBy: text(),
    lastTrackedAt: timestamp({ withTimezone: true }),
    deliveredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('shipments_order_idx').on(t.orderId),
    index('shipments_status_idx').on(t.status),
    check(
      'shipments_bought_has_tracking',
      sql`${t.status} in ('requested', 'retrying', 'failed', 'skipped') or ${t.trackingNumber} is not null`,
    ),
  ],
)

export type ShipmentRow = typeof shipments.$inferSelect
