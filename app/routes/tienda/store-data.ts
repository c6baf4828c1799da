import { useRouteLoaderData } from 'react-router'
import type { ShippingRules } from '#app/modules/cart/shipping.ts'
import type { loader as storeLayoutLoader } from './layout.tsx'

/** The shop's shipping rules, from the storefront layout's data (components get them passed in). */
export function useStoreShipping(): ShippingRules {
  return (
    useRouteLoaderData<typeof storeLayoutLoader>('routes/tienda/layout')?.store.shipping ?? {
      shippingCost: 0,
      freeShippingThreshold: 0,
    }
  )
}
