/**
 * Every storefront and admin URL the app links to or redirects to, built in one place (the URL
 * map itself is `app/routes.ts`). Path segments taken from data are always encoded.
 */

// Storefront
export const CART_PATH = '/carrito'
export const CHECKOUT_PATH = '/finalizar-pedido'
export const DATA_POLICY_PATH = '/politica-de-datos'
export const SEARCH_PATH = '/buscar'

export const productPath = (sku: string) => `/producto/${encodeURIComponent(sku)}`

export const categoryPath = (category: { id: string; name: string }) =>
  `/categoria/${encodeURIComponent(category.id)}/${encodeURIComponent(category.name)}`

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
/** Stock entry and exit forms (spec §2), optionally with the product already chosen. */
export const ADMIN_STOCK_ENTRY_PATH = '/admin/productos/entrada'
export const ADMIN_STOCK_EXIT_PATH = '/admin/productos/salida'
export const adminStockEntryPath = (sku?: string) =>
  sku ? `${ADMIN_STOCK_ENTRY_PATH}?${new URLSearchParams({ sku })}` : ADMIN_STOCK_ENTRY_PATH
export const adminStockExitPath = (sku?: string) =>
  sku ? `${ADMIN_STOCK_EXIT_PATH}?${new URLSearchParams({ sku })}` : ADMIN_STOCK_EXIT_PATH
/** A product's kardex (every ledger row), and the same rows as CSV; `query` carries the day range. */
export const adminKardexPath = (sku: string, query?: URLSearchParams) =>
  `/admin/productos/movimientos/${encodeURIComponent(sku)}${query?.size ? `?${query}` : ''}`
export const adminKardexCsvPath = (sku: string, query?: URLSearchParams) =>
  `/admin/productos/movimientos/${encodeURIComponent(sku)}/csv${query?.size ? `?${query}` : ''}`
export const ADMIN_CATEGORIES_PATH = '/admin/categorias'
export const ADMIN_CATEGORY_CREATE_PATH = '/admin/categorias/crear'
export const ADMIN_ORDERS_PATH = '/admin/pedidos'
export const ADMIN_ORDERS_PAID_PATH = '/admin/pedidos/pagados'
export const ADMIN_ORDERS_PENDING_PATH = '/admin/pedidos/pendientes'
/** The order list with a filter (`ver`: one of the desk's views), a search and a page. */
export const adminOrdersPath = (params: { ver?: string; q?: string; pagina?: number } = {}) => {
  const search = new URLSearchParams()
  if (params.ver) search.set('ver', params.ver)
  if (params.q) search.set('q', params.q)
  if (params.pagina && params.pagina > 1) search.set('pagina', String(params.pagina))
  const query = search.toString()
  return query ? `${ADMIN_ORDERS_PATH}?${query}` : ADMIN_ORDERS_PATH
}
export const adminOrderPath = (id: string) => `/admin/pedidos/detalle/${encodeURIComponent(id)}`
export const adminPackingSlipPath = (id: string) => `/admin/pedidos/guia/${encodeURIComponent(id)}`
/** Packing slips of several orders on one page (`id` repeated). */
export const ADMIN_PACKING_SLIPS_PATH = '/admin/pedidos/guias'
export const adminCategoryEditPath = (id: string) => `/admin/categorias/editar/${encodeURIComponent(id)}`
export const ADMIN_CHANNELS_PATH = '/admin/canales'
/** The channels page on one channel's list, searched and paged (empty values are left out). */
export function adminChannelsPath(
  query: { canal?: string; sku?: string; estado?: string; desde?: number } = {},
) {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '' && value !== 0 && value !== 'todos')
      params.set(name, String(value))
  }
  const search = params.toString()
  return search ? `${ADMIN_CHANNELS_PATH}?${search}` : ADMIN_CHANNELS_PATH
}

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
