import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/robots'

export function loader({ context }: Route.LoaderArgs) {
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /login-admin',
    'Disallow: /carrito',
    'Disallow: /finalizar-pedido',
    'Disallow: /api/',
    `Sitemap: ${servicesOf(context).env.publicUrl}/sitemap.xml`,
    '',
  ].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
