import { beforeAll, expect, test } from 'vitest'
import { saveSeoSettings } from '#app/modules/settings/seo-settings.server.ts'
import type { Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import { loader } from './robots.ts'

const t = setupTestDatabase()
let services: Services

beforeAll(() => {
  services = testServices({
    database: t.database,
    env: parseEnv({ PUBLIC_URL: 'https://tienda.example.co' }),
  })
})

const robots = async () => (await loader({ context: routeContext(services) } as never)).text()

test('robots.txt names the sitemap under the registry’s PUBLIC_URL, not the process’s own variables', async () => {
  const body = await robots()
  expect(body).toContain('Sitemap: https://tienda.example.co/sitemap.xml')
  expect(body).toContain('Disallow: /admin')
})

test('the owner’s lines from "SEO" follow the shop’s own rules, before the sitemap', async () => {
  await saveSeoSettings(
    t.db,
    {
      seoSitemapProducts: 'on',
      seoSitemapCategories: 'on',
      seoRobotsExtra: '\r\nUser-agent: GPTBot\r\nDisallow: /\r\n\r\n',
      seoGoogleVerification: '',
    },
    'dueno@example.co',
  )
  const lines = (await robots()).split('\n')
  expect(lines.slice(lines.indexOf('Disallow: /api/'))).toEqual([
    'Disallow: /api/',
    '',
    'User-agent: GPTBot',
    'Disallow: /',
    '',
    'Sitemap: https://tienda.example.co/sitemap.xml',
    '',
  ])
})
