/**
 * Back-office pages built after the storefront's: kept apart from `paths.ts`, which the storefront's
 * first visit downloads, so a shopper's phone never loads the order desk's or the kardex's URLs.
 */
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
/** The "Ventas" report and its CSV; `query` carries the day range (`desde`, `hasta`). */
export const ADMIN_SALES_PATH = '/admin/ventas'
export const adminSalesPath = (query?: URLSearchParams) =>
  `${ADMIN_SALES_PATH}${query?.size ? `?${query}` : ''}`
export const adminSalesCsvPath = (query?: URLSearchParams) =>
  `${ADMIN_SALES_PATH}/csv${query?.size ? `?${query}` : ''}`
/** "Pagos", every payment of the ledger, and its CSV; `query` carries `desde`, `hasta`, `proveedor`. */
export const ADMIN_PAYMENTS_PATH = '/admin/ventas/pagos'
export const adminPaymentsPath = (query?: URLSearchParams) =>
  `${ADMIN_PAYMENTS_PATH}${query?.size ? `?${query}` : ''}`
export const adminPaymentsCsvPath = (query?: URLSearchParams) =>
  `${ADMIN_PAYMENTS_PATH}/csv${query?.size ? `?${query}` : ''}`
/** Clicks per element and visits per page of a month (`mes`: YYYY-MM). */
export const ADMIN_REPORTS_PATH = '/admin/reportes'
export const adminReportsPath = (month?: string) =>
  month ? `${ADMIN_REPORTS_PATH}?${new URLSearchParams({ mes: month })}` : ADMIN_REPORTS_PATH
/** "Configuraciones": shipping, contact, seller identification and the home banners. */
export const ADMIN_SETTINGS_PATH = '/admin/configuraciones'
/** An order's electronic invoice as a file (PDF or XML), fetched from the invoicing provider. */
export const adminInvoiceFilePath = (orderId: string, kind: 'pdf' | 'xml') =>
  `/admin/pedidos/factura/${encodeURIComponent(orderId)}/${kind}`

/** The carrier's label (PDF) of an order's guía bought through the shop. */
export const adminCarrierLabelPath = (orderId: string) =>
  `/admin/pedidos/guia-transportadora/${encodeURIComponent(orderId)}`

/** The buyer's receipt (image or PDF) of an order paid by transfer or Bre-B. */
export const adminPaymentReceiptPath = (orderId: string) =>
  `/admin/pedidos/comprobante/${encodeURIComponent(orderId)}`
/** "Descuentos y Promociones": the list, the new-promotion form and one promotion's form. */
export const ADMIN_PROMOTIONS_PATH = '/admin/descuentos'
export const ADMIN_PROMOTION_CREATE_PATH = '/admin/descuentos/nueva'
export const adminPromotionEditPath = (id: number) => `/admin/descuentos/editar/${id}`
/** "Usuarios": the team, its roles and invitations. */
export const ADMIN_TEAM_PATH = '/admin/usuarios'
/** "Seguridad": sessions, sign-ins and the audit log (`ver`), and the lists as CSV. */
export const ADMIN_SECURITY_PATH = '/admin/seguridad'
export const ADMIN_SECURITY_CSV_PATH = '/admin/seguridad/csv'
export const adminSecurityPath = (
  query: Record<string, string | number | undefined> = {},
  base = ADMIN_SECURITY_PATH,
) => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (
      value !== undefined &&
      value !== '' &&
      !(name === 'ver' && value === 'sesiones') &&
      !(name === 'pagina' && value === 1)
    ) {
      params.set(name, String(value))
    }
  }
  return params.size ? `${base}?${params}` : base
}
/** "Marketing": the catalog feeds' addresses and what each left out. */
export const ADMIN_MARKETING_PATH = '/admin/marketing'
/** "Mensajes y Notificaciones": the new-order notice's numbers and template, the buyer's messages. */
export const ADMIN_MESSAGES_PATH = '/admin/mensajes'
/** "SEO": sitemap.xml, robots.txt and Google Search Console's verification (owners only). */
export const ADMIN_SEO_PATH = '/admin/seo'
/** "Ayuda": the owner's guide; `#section` jumps to one part. */
export const ADMIN_HELP_PATH = '/admin/ayuda'
