/**
 * The `data-track` names of the storefront's elements, for the pages (the attributes) and the server
 * (a click beacon's name must be one of these, so no one can grow the monthly records with names of
 * their own, spec §3, §5). The pages write the name itself, checked by the compiler
 * (`data-track={'whatsapp' satisfies TrackedElement}`): a type import adds no byte to the
 * storefront's first visit, which is at its budget.
 */
export const TRACK = {
  product: 'producto',
  search: 'buscar',
  cart: 'carrito',
  /** Every category link in the menu (which category is read from the category pages' visits). */
  category: 'categoria',
  buyNow: 'comprar-ahora',
  addToCart: 'agregar-carrito',
  checkout: 'finalizar-pedido',
  placeOrder: 'confirmar-pedido',
  whatsapp: 'whatsapp',
} as const

export type TrackedElement = (typeof TRACK)[keyof typeof TRACK]

export const TRACKED_ELEMENTS: readonly string[] = Object.values(TRACK)

export function isTrackedElement(name: string): name is TrackedElement {
  return TRACKED_ELEMENTS.includes(name)
}
