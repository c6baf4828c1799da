import { listSitemapEntries } from '#app/modules/catalog/catalog.server.ts'
import { readSeoSettings } from '#app/modules/settings/seo-settings.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { categoryPath, productPath } from '#app/utils/paths.ts'
import type { Route } from './+types/sitemap'

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  )

export async function loader({ context }: Route.LoaderArgs) {
  const { env, database } = servicesOf(context)
  const origin = env.publicUrl
  // "SEO" may leave products or categories out; every URL is the page's canonical one.
  const seo = await readSeoSettings(database.db)
  const { products, categories } = await listSitemapEntries(database.db, {
    products: seo.seoSitemapProducts,
    categories: seo.seoSitemapCategories,
  })
  const urls = [
    `<url><loc>${origin}/</loc></url>`,
    ...categories.map((c) => `<url><loc>${escapeXml(`${origin}${categoryPath(c)}`)}</loc></url>`),
    ...products.map(
      (p) =>
        `<url><loc>${escapeXml(`${origin}${productPath(p)}`)}</loc><lastmod>${p.updatedAt.toISOString()}</lastmod></url>`,
    ),
  ]
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
  return new Response(body, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
