import type { OrderCampaign } from '#app/modules/order/place.server.ts'
import { eq } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { placeOrder } from '#app/modules/checkout/checkout.server.ts'
import type { HoldLimits } from '#app/modules/settings/validators.ts'
import type { PaymentMethod } from '#app/modules/order/schema.ts'
import { recordEntry } from '#app/modules/inventory/movement.server.ts'
import { productLocations, stockMovements } from '#app/modules/inventory/schema.ts'
import { createProduct } from './factories.ts'

/** Limits no test of other rules reaches. */
export const LOOSE_HOLD_LIMITS: HoldLimits = {
  maxOpenOrders: 1000,
  maxOpenUnits: 100_000,
  maxOpenOrdersPerAddress: 1000,
  maxOpenUnitsPerAddress: 100_000,
}

/** A product stocked the way the shop stocks one: an entry through inventory, so the ledger agrees. */
export async function stockedProduct(
  db: Db,
  quantity: number,
  unitCost = 20_000_00,
  location = 'P1-C1-A1-E1-X1-Y1-Z1',
) {
  const product = await createProduct(db, { stock: 0, cost: 0 })
  await recordEntry(
    db,
    recordingJobQueue(),
    { sku: product.sku, quantity, unitCost, location, receipt: 'F-1', note: '' },
    'pruebas@vitrina.test',
  )
  return product
}

export type Placement = {
  sku: string
  quantity: number
  paymentMethod?: PaymentMethod
  phone?: string
  clientAddress?: string | null
  holdLimits?: HoldLimits
  /** Where the shopper came from (analytics' first touch); absent: not known. */
  campaign?: OrderCampaign | null
}

/** An order placed through checkout (units reserved), as a shopper places it. */
export async function placeTestOrder(db: Db, placement: Placement) {
  const result = await placeOrder(
    {
      db,
      jobs: recordingJobQueue(),
      shipping: { shippingCost: 0, freeShippingThreshold: 0 },
      notifyNumbers: [],
      onlinePayments: { mercadopago: true, wompi: true },
      holdLimits: placement.holdLimits ?? LOOSE_HOLD_LIMITS,
    },
    {
      lines: [{ sku: placement.sku, quantity: placement.quantity }],
      customer: {
        name: 'Luis',
        last_name: 'Gómez',
        phone: placement.phone ?? '3109876543',
        address: 'Carrera 7 # 8-9',
        city: 'Bogotá',
        department: 'Bogotá D.C.',
        payment_method: placement.paymentMethod ?? 'acordar',
        consent: true,
      },
      clientAddress: placement.clientAddress ?? null,
      campaign: placement.campaign,
    },
  )
  return result.order
}

/** A product's stock columns, its ledger and its locations. */
export async function stockOf(db: Db, sku: string) {
  const [row] = await db
    .select({ stock: products.stock, reserved: products.reserved, unitsOut: products.unitsOut })
    .from(products)
    .where(eq(products.sku, sku))
  const ledger = await db
    .select()
    .from(stockMovements)
    .where(eq(stockMovements.productSku, sku))
    .orderBy(stockMovements.id)
  const locations = await db.select().from(productLocations).where(eq(productLocations.productSku, sku))
  return { ...row!, ledger, locations }
}

/** A shopper's details as the checkout form sends them, cash on delivery. */
export const ANA = {
  name: 'Ana',
  last_name: 'Gómez',
  identification_number: '1020304050',
  phone: '300 123 4567',
  email: 'ana@example.com',
  address: 'Calle 1 # 2-3',
  department: 'Antioquia',
  municipality_code: '05001',
  payment_method: 'acordar' as const,
  consent: true,
}
