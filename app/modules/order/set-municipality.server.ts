import { eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { departmentCoded } from '#app/modules/places/departments.ts'
import { municipalityCoded } from '#app/modules/places/places.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { MUNICIPALITY_MESSAGES } from './delivery-place.ts'
import { lockOrder, recordOrderEvent } from './order.server.ts'
import { orderNotFound } from './ship.server.ts'
import { orders } from './schema.ts'

export type SetOrderMunicipality = {
  orderId: string
  /** A 5-digit DANE DIVIPOLA code ("05001"). */
  municipalityCode: string
  /** The admin's e-mail, on the timeline. */
  by: string
}

/**
 * The owner picks where an order goes (at the desk, on any status): its municipality by DANE code,
 * and with it the department's code and the shop's name for the department. The city the shopper
 * typed is kept as written (the desk shows it beside the municipality); an order without one gets
 * the municipality's name. One transaction on the locked order, on the timeline with who did it.
 */
export async function setOrderMunicipality(db: DbOrTx, input: SetOrderMunicipality): Promise<void> {
  const municipality = municipalityCoded(input.municipalityCode.trim())
  const department = municipality && departmentCoded(municipality.departmentCode)
  if (!municipality || !department) {
    throw new Refusal(MUNICIPALITY_MESSAGES.choose, { status: 400, standsAlone: true })
  }
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.orderId)
    if (!order) throw orderNotFound()
    await tx
      .update(orders)
      .set({
        customerMunicipalityCode: municipality.code,
        customerDepartmentCode: department.code,
        customerDepartment: department.name,
        ...(order.customerCity.trim() ? {} : { customerCity: municipality.name }),
        updatedAt: new Date(),
      })
      .where(eq(orders.id, order.id))
    await recordOrderEvent(
      tx,
      order.id,
      'municipality-set',
      MUNICIPALITY_MESSAGES.assigned(municipality.name, department.name, municipality.code),
      {
        municipalityCode: municipality.code,
        departmentCode: department.code,
        previous: {
          municipalityCode: order.customerMunicipalityCode,
          departmentCode: order.customerDepartmentCode,
          department: order.customerDepartment,
          city: order.customerCity,
        },
      },
      input.by,
    )
  })
}
