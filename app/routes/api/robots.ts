import { readSeoSettings } from '#app/modules/settings/seo-settings.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/robots'

/** The shop's own rules, then the owner's lines from "SEO" (checked when saved), then the sitemap. */
export async function loader({ context }: Route.LoaderArgs) {
  const { env, reads } = servicesOf(context)
  const { seoRobotsExtra } = await readSeoSettings(reads.db)
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /login-admin',
    'Disallow: /carrito',
    'Disallow: /finalizar-pedido',
    'Disallow: /api/',
    ...(seoRobotsExtra ? ['', seoRobotsExtra] : []),
    '',
    `Sitemap: ${env.publicUrl}/sitemap.xml`,
    '',
  ].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
