import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { whatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { startWhatsAppStandIn } from '#tests/stand-ins/whatsapp.ts'
import { CLAIM_NOTICE_TEMPLATE, sendClaimNotice } from './claim-notice.server.ts'
import { listOrderEvents } from './order.server.ts'
import { orderClaims, orders } from './schema.ts'

const t = setupTestDatabase()
const standIn = standInForFile(startWhatsAppStandIn)
const BUSINESS_NUMBER = '573109876543'

const whatsapp = () =>
  whatsAppClient({ baseUrl: standIn().url, token: standIn().token, phoneNumberId: standIn().phoneNumberId })

/** A delivered order with a retracto waiting for the shop's answer. */
async function claimed() {
  const id = `ord_${randomUUID()}`
  const [order] = await t.db
    .insert(orders)
    .values({
      id,
      status: 'Completado',
      customerName: 'Ana',
      customerPhone: '3001234567',
      customerAddress: 'Calle 10 # 20-30',
      customerDepartment: 'Antioquia',
      subtotal: 100,
      shippingCost: 0,
      total: 100,
    })
    .returning()
  const [claim] = await t.db
    .insert(orderClaims)
    .values({ orderId: id, kind: 'retracto', deadline: '2027-01-13' })
    .returning()
  return { order: order!, claim: claim! }
}

describe('sendClaimNotice', () => {
  test('tells the business number at once with "solicitud_cliente": order number, request, deadline', async () => {
    const { order, claim } = await claimed()
    const result = await sendClaimNotice(
      { db: t.db, whatsapp: whatsapp() },
      { claimId: claim.id, to: BUSINESS_NUMBER },
    )
    const [sent] = standIn().sent
    expect(sent).toMatchObject({
      to: BUSINESS_NUMBER,
      name: CLAIM_NOTICE_TEMPLATE,
      language: 'es',
      parameters: [String(order.number), 'Derecho de retracto', '13 de enero de 2027'],
    })
    expect(CLAIM_NOTICE_TEMPLATE).toBe('solicitud_cliente')
    expect(result).toEqual({ sent: sent!.messageId })
    const events = await listOrderEvents(t.db, order.id)
    expect(events.map((event) => event.type)).toEqual(['notice-sent'])
  })

  test('without WhatsApp configured it records on the order that the notice was skipped', async () => {
    const { order, claim } = await claimed()
    const before = standIn().requests.length
    expect(
      await sendClaimNotice({ db: t.db, whatsapp: null }, { claimId: claim.id, to: BUSINESS_NUMBER }),
    ).toEqual({
      skipped: 'sin configuración',
    })
    expect(standIn().requests).toHaveLength(before)
    const events = await listOrderEvents(t.db, order.id)
    expect(events[0]).toMatchObject({ type: 'notice-skipped' })
    expect(events[0]!.message).toContain('Derecho de retracto')
  })

  test('a claim that is not there is skipped', async () => {
    expect(
      await sendClaimNotice({ db: t.db, whatsapp: whatsapp() }, { claimId: 999_999, to: BUSINESS_NUMBER }),
    ).toEqual({
      skipped: 'solicitud inexistente',
    })
  })
})
