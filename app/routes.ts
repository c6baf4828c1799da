import { type RouteConfig, index, layout, route } from '@react-router/dev/routes'

export default [
  layout('routes/tienda/layout.tsx', [
    index('routes/tienda/home.tsx'),
    route('carrito', 'routes/tienda/cart.tsx'),
    route('producto/:sku', 'routes/tienda/product.tsx'),
    route('categoria/:id/:nombre?', 'routes/tienda/category.tsx'),
    route('buscar', 'routes/tienda/search.tsx'),
    route('finalizar-pedido', 'routes/tienda/checkout.tsx'),
    route('finalizar-pedido/success', 'routes/tienda/checkout-result.tsx', { id: 'checkout-success' }),
    route('finalizar-pedido/pending', 'routes/tienda/checkout-result.tsx', { id: 'checkout-pending' }),
    route('finalizar-pedido/failure', 'routes/tienda/checkout-result.tsx', { id: 'checkout-failure' }),
    route('pago-simulado/:id', 'routes/tienda/simulated-payment.tsx'),
    route('politica-de-datos', 'routes/tienda/data-policy.tsx'),
    route('*', 'routes/tienda/not-found.tsx'),
  ]),
  route('login-admin', 'routes/admin/login.tsx'),
  route('login-admin/callback', 'routes/admin/callback.ts'),
  route('logout', 'routes/admin/logout.ts'),
  // Back office: every loader and action below calls requireAdmin
  // (app/routes/admin/admin-routes.test.ts walks this list).
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/dashboard.tsx'),
    route('perfil', 'routes/admin/profile.tsx'),
    route('productos', 'routes/admin/products/layout.tsx', [
      index('routes/admin/products/inventory.tsx'),
      route('crear', 'routes/admin/products/create.tsx'),
      route('editar/:sku', 'routes/admin/products/edit.tsx'),
      route('entrada', 'routes/admin/stock/entry.tsx'),
      route('salida', 'routes/admin/stock/exit.tsx'),
      route('movimientos/:sku', 'routes/admin/stock/kardex.tsx'),
    ]),
    route('productos/guardar', 'routes/admin/products/save.ts'),
    route('productos/movimientos/:sku/csv', 'routes/admin/stock/kardex-csv.ts'),
    route('categorias', 'routes/admin/categories/list.tsx'),
    route('categorias/crear', 'routes/admin/categories/form.tsx', { id: 'admin-category-create' }),
    route('categorias/editar/:id', 'routes/admin/categories/form.tsx', { id: 'admin-category-edit' }),
    route('canales', 'routes/admin/channels.tsx'),
    route('*', 'routes/admin/not-found.tsx'),
  ]),
  route('api/buscar', 'routes/api/search.ts'),
  route('api/productos', 'routes/api/products.ts'),
  route('api/carrito', 'routes/api/cart.ts'),
  route('api/webhooks/mercadopago', 'routes/api/mercadopago-webhook.ts'),
  route('sitemap.xml', 'routes/api/sitemap.ts'),
  route('robots.txt', 'routes/api/robots.ts'),
] satisfies RouteConfig
