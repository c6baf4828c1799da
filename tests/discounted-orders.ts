import type { Db } from '#app/db/client.server.ts'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { reserveUnits } from '#app/modules/inventory/stock.server.ts'
import { recordPlacedOrder } from '#app/modules/order/place.server.ts'
import type { PaymentMethod } from '#app/modules/order/schema.ts'
import { stockedProduct } from './orders.ts'

/** The promotions the discounted order names (ids no test's promotion row reaches). */
export const BLACK_FRIDAY = { promotionId: 900_001, name: 'Black Friday', code: null }
export const LAURA10 = { promotionId: 900_002, name: 'Cupón de Laura', code: 'LAURA10' }

/**
 * An order with promotions, recorded as checkout records one (its units reserved in the same
 * transaction). 2 × Collar Luna at 45.000 (Black Friday takes 9.000 off the line), 1 × Aretes Sol
 * at 20.000 (the code LAURA10 takes 2.000 off it), shipping 12.000 (LAURA10 takes 5.000 off it):
 * subtotal 110.000, discount 16.000, total 106.000.
 */
export async function placeDiscountedOrder(
  db: Db,
  options: { paymentMethod?: PaymentMethod; phone?: string; unitCost?: number } = {},
) {
  const collar = await stockedProduct(db, 10, options.unitCost ?? 20_000_00)
  const aretes = await stockedProduct(db, 10, options.unitCost ?? 8_000_00)
  const placed = await db.transaction(async (tx) => {
    await reserveUnits(tx, recordingJobQueue(), [
      { sku: collar.sku, quantity: 2 },
      { sku: aretes.sku, quantity: 1 },
    ])
    return recordPlacedOrder(tx, {
      paymentMethod: options.paymentMethod ?? 'acordar',
      customer: {
        name: 'Ana',
        lastName: 'Gómez',
        identificationNumber: '1020304050',
        identificationType: 'CC',
        phone: options.phone ?? '3001234567',
        email: 'ana@example.com',
        address: 'Calle 10 # 20-30',
        city: 'Medellín',
        department: 'Antioquia',
        departmentCode: '05',
        municipalityCode: '05001',
      },
      items: [
        {
          productSku: collar.sku,
          title: 'Collar Luna',
          quantity: 2,
          unitPrice: 45_000_00,
          discount: 9_000_00,
        },
        {
          productSku: aretes.sku,
          title: 'Aretes Sol',
          quantity: 1,
          unitPrice: 20_000_00,
          discount: 2_000_00,
        },
      ],
      totals: { subtotal: 110_000_00, shipping: 12_000_00, discount: 16_000_00, total: 106_000_00 },
      discounts: [
        { ...BLACK_FRIDAY, productSku: collar.sku, amount: 9_000_00 },
        { ...LAURA10, productSku: aretes.sku, amount: 2_000_00 },
        { ...LAURA10, productSku: null, amount: 5_000_00 },
      ],
      clientAddress: null,
      clientNetwork: null,
    })
  })
  return { ...placed, collar, aretes }
}
