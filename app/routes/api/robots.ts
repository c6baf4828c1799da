import { getServices } from '#app/services.server.ts'

export function loader() {
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /login-admin',
    'Disallow: /carrito',
    'Disallow: /finalizar-pedido',
    'Disallow: /api/',
    `Sitemap: ${getServices().env.publicUrl}/sitemap.xml`,
    '',
  ].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
