import type { ShippingRules } from '#app/modules/cart/shipping.ts'
import type { Env } from '#app/utils/env.server.ts'
import { pesosToCentavos } from '#app/utils/money.ts'

export type StoreInfo = {
  storeName: string
  /** Canonical origin, e.g. https://tienda.example (no trailing slash). */
  publicUrl: string
  whatsappNumber: string
  shipping: ShippingRules
  seller: { legalName: string; nit: string; address: string; email: string; phone: string }
  /** Ley 1480, art. 50: how long delivery takes, shown in the footer. */
  deliveryTime: string
}

/** What every storefront page needs to know about the shop. */
export function getStoreInfo(env: Env): StoreInfo {
  return {
    storeName: env.STORE_NAME,
    publicUrl: env.publicUrl,
    whatsappNumber: env.WHATSAPP_CONTACT_NUMBER,
    shipping: {
      shippingCost: pesosToCentavos(env.SHIPPING_COST),
      freeShippingThreshold: pesosToCentavos(env.FREE_SHIPPING_THRESHOLD),
    },
    seller: {
      legalName: env.SELLER_LEGAL_NAME,
      nit: env.SELLER_NIT,
      address: env.SELLER_ADDRESS,
      email: env.SELLER_EMAIL,
      phone: env.WHATSAPP_CONTACT_NUMBER,
    },
    deliveryTime: env.DELIVERY_TIME,
  }
}
