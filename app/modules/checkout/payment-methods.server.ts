import type { DbOrTx } from '#app/db/client.server.ts'
import type { OnlinePaymentMethod, PaymentMethod } from '#app/modules/order/schema.ts'
import { readPaymentSettings } from '#app/modules/settings/settings.server.ts'

/**
 * The ways to pay the checkout offers now: cash on delivery (where the place takes it: the order's
 * own check), each online provider that is configured (or simulated) and turned on in "Pagos", and
 * transfers once the owner said where they go. Read fresh, in the order's transaction when given.
 */
export async function offeredPaymentMethods(
  db: DbOrTx,
  configured: Record<OnlinePaymentMethod, boolean>,
): Promise<PaymentMethod[]> {
  const settings = await readPaymentSettings(db)
  const methods: PaymentMethod[] = ['acordar']
  if (configured.mercadopago && settings.mercadopago) methods.push('mercadopago')
  if (configured.wompi && settings.wompi) methods.push('wompi')
  if (settings.transfer) methods.push('transferencia')
  return methods
}
