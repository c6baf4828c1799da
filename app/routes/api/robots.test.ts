import { expect, test } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import { loader } from './robots.ts'

test('robots.txt names the sitemap under the registry’s PUBLIC_URL, not the process’s own variables', async () => {
  const services = testServices({ env: parseEnv({ PUBLIC_URL: 'https://tienda.example.co' }) })
  const body = await loader({ context: routeContext(services) } as never).text()
  expect(body).toContain('Sitemap: https://tienda.example.co/sitemap.xml')
  expect(body).toContain('Disallow: /admin')
})
