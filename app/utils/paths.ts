/**
 * Every storefront and admin URL the app links to or redirects to, built in one place (the URL
 * map itself is `app/routes.ts`). Path segments taken from data are always encoded.
 */

// Storefront
export const CART_PATH = '/carrito'
export const CHECKOUT_PATH = '/finalizar-pedido'
export const DATA_POLICY_PATH = '/politica-de-datos'
export const SEARCH_PATH = '/buscar'

/**
 * A product's canonical page: the SKU is the key, the slug (`slugOf`, slug.ts) is for people
 * (`/producto/{sku}/{slug}`; the SKU alone when it has none). Any other spelling answers a 301 here.
 */
export const productPath = (product: { sku: string; slug: string }) =>
  `/producto/${encodeURIComponent(product.sku)}${product.slug ? `/${encodeURIComponent(product.slug)}` : ''}`

/** A category's canonical page, `/categoria/{id}/{slug}`, likewise. */
export const categoryPath = (category: { id: string; slug: string }) =>
  `/categoria/${encodeURIComponent(category.id)}${category.slug ? `/${encodeURIComponent(category.slug)}` : ''}`

/** The storefront's own data endpoints (fetched by its components). */
export const searchApiPath = (query: string) => `/api/buscar?${new URLSearchParams({ q: query })}`
export const cartApiPath = (skus: string) => `/api/carrito?${new URLSearchParams({ skus })}`
export const PRODUCTS_API_PATH = '/api/productos'

/** Where checkout and the payment provider send the shopper once the order is placed or paid. */
export const CHECKOUT_RESULT_PATHS = {
  success: `${CHECKOUT_PATH}/success`,
  pending: `${CHECKOUT_PATH}/pending`,
  failure: `${CHECKOUT_PATH}/failure`,
} as const

export const orderResultPath = (outcome: keyof typeof CHECKOUT_RESULT_PATHS, orderId: string) =>
  `${CHECKOUT_RESULT_PATHS[outcome]}?${new URLSearchParams({ pedido: orderId })}`

/** The local stand-in for Mercado Pago's payment page, and where Mercado Pago notifies us. */
export const SIMULATED_PAYMENT_PATH = '/pago-simulado'
export const simulatedPaymentPath = (orderId: string) =>
  `${SIMULATED_PAYMENT_PATH}/${encodeURIComponent(orderId)}`
export const PAYMENT_WEBHOOK_PATH = '/api/webhooks/mercadopago'
/** Where Wompi posts its signed events (`transaction.updated`). */
export const WOMPI_EVENTS_PATH = '/api/webhooks/wompi'
/** Where Wompi's checkout sends the shopper back (it adds `id`, the transaction). */
export const wompiReturnPath = (orderId: string) =>
  `${CHECKOUT_PATH}/wompi?${new URLSearchParams({ pedido: orderId })}`
/** The local stand-in for Wompi's Web Checkout page (no Wompi keys configured). */
export const SIMULATED_WOMPI_PATH = '/pago-simulado-wompi'

// Sign-in and back office
export const LOGIN_PATH = '/login-admin'
export const LOGIN_CALLBACK_PATH = `${LOGIN_PATH}/callback`
export const LOGOUT_PATH = '/logout'
export const ADMIN_PATH = '/admin'
export const ADMIN_PROFILE_PATH = '/admin/perfil'
export const ADMIN_PRODUCTS_PATH = '/admin/productos'
export const ADMIN_PRODUCT_CREATE_PATH = '/admin/productos/crear'
/** Where the product form posts (one resource route for create and edit, with upload progress). */
export const ADMIN_PRODUCT_SAVE_PATH = '/admin/productos/guardar'
export const adminProductEditPath = (sku: string) => `/admin/productos/editar/${encodeURIComponent(sku)}`
export const ADMIN_CATEGORIES_PATH = '/admin/categorias'
export const ADMIN_CATEGORY_CREATE_PATH = '/admin/categorias/crear'
export const adminCategoryEditPath = (id: string) => `/admin/categorias/editar/${encodeURIComponent(id)}`

/**
 * The page a request is for. React Router hands loaders and actions the raw request
 * (`future.v8_passThroughRequests`): a client navigation's is the data request, `/x.data?_routes=…`
 * (`/_.data` for `/`). Code that only has the request (e.g. to send someone back to the page after
 * signing in) reads the page's own URL here; routes use their `url` argument.
 */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url)
  if (url.pathname.endsWith('/_.data')) url.pathname = url.pathname.slice(0, -'_.data'.length)
  else if (url.pathname.endsWith('.data')) url.pathname = url.pathname.slice(0, -'.data'.length)
  else return url
  url.searchParams.delete('_routes')
  url.searchParams.delete('index')
  return url
}
/** The consent banner's form (the analytics beacons' paths live in components/tracker.ts). */
export const CONSENT_PATH = '/api/consentimiento'

/**
 * The buyer's order page: `/pedido/{número}`, which asks for the phone's last 4 digits, or with the
 * signed `clave` the shop sends after the order (`orderLinkToken`), which opens it at once.
 */
export const ORDER_LOOKUP_PATH = '/pedido'
export const orderStatusPath = (number: number, key?: string) =>
  `${ORDER_LOOKUP_PATH}/${number}${key ? `?${new URLSearchParams({ clave: key })}` : ''}`
/** The link that refills a left checkout's cart (sent by the shop on WhatsApp). */
export const cartRecoveryPath = (token: string) => `${CART_PATH}/recuperar/${token}`
