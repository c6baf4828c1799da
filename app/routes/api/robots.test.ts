import { afterEach, expect, test } from 'vitest'
import { useServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { testServices } from '#tests/services.ts'
import { loader } from './robots.ts'

afterEach(() => {
  useServices(undefined)
})

test('robots.txt names the sitemap under the registry’s PUBLIC_URL, not the process’s own variables', async () => {
  useServices(testServices({ env: parseEnv({ PUBLIC_URL: 'https://tienda.example.co' }) }))
  const body = await loader().text()
  expect(body).toContain('Sitemap: https://tienda.example.co/sitemap.xml')
  expect(body).toContain('Disallow: /admin')
})
