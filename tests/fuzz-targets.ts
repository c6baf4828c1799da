/**
 * The route files the fuzz suites cover (app/routes/fuzz-coverage.test.ts checks that every route
 * with an action, and every resource route under routes/api/ that reads input, is listed here).
 */
export const STOREFRONT_FUZZ_TARGETS = [
  'routes/tienda/cart.tsx',
  'routes/tienda/checkout.tsx',
  'routes/tienda/checkout-result.tsx',
  'routes/tienda/simulated-payment.tsx',
  'routes/tienda/simulated-wompi.tsx',
  'routes/tienda/order-status.tsx',
  'routes/api/consent.ts',
  'routes/api/analytics-click.ts',
  'routes/api/analytics-view.ts',
  'routes/api/meta-events.ts',
  'routes/api/mercadopago-webhook.ts',
  'routes/api/wompi-events.ts',
  'routes/api/cart.ts',
  'routes/api/search.ts',
  'routes/api/products.ts',
  'routes/api/municipalities.ts',
  'routes/api/shipping-quote.ts',
  'routes/api/checkout-draft.ts',
  'routes/tienda/cart-recovery.ts',
] as const

export const ADMIN_FUZZ_TARGETS = [
  'routes/admin/login.tsx',
  'routes/admin/logout.ts',
  'routes/admin/dashboard.tsx',
  'routes/admin/products/create.tsx',
  'routes/admin/products/edit.tsx',
  'routes/admin/products/inventory.tsx',
  'routes/admin/products/save.ts',
  'routes/admin/stock/entry.tsx',
  'routes/admin/stock/exit.tsx',
  'routes/admin/categories/form.tsx',
  'routes/admin/categories/list.tsx',
  'routes/admin/promotions/form.tsx',
  'routes/admin/promotions/list.tsx',
  'routes/admin/channels.tsx',
  'routes/admin/orders/detail.tsx',
  'routes/admin/settings.tsx',
  'routes/admin/messages.tsx',
  'routes/admin/seo.tsx',
  'routes/admin/sales/payments.tsx',
  'routes/admin/team.tsx',
  'routes/admin/security.tsx',
] as const

/** Resource routes outside routes/api/ that read their address, fuzzed too. */
export const PAGE_RESOURCE_ROUTES_WITH_INPUT = ['routes/tienda/cart-recovery.ts'] as const

/** Resource routes that read no input at all: nothing to fuzz. */
export const INPUTLESS_RESOURCE_ROUTES = [
  'routes/api/robots.ts',
  'routes/api/sitemap.ts',
  'routes/api/feed-meta.ts',
  'routes/api/feed-google.ts',
] as const
