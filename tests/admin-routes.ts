import { beforeAll } from 'vitest'
import type { Services } from '#app/services.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from './auth.ts'
import type { setupTestDatabase } from './db.ts'
import { memoryStorage } from './media.ts'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import { adminCaller } from './routes.ts'
import { testServices } from './services.ts'

/**
 * An admin route test's set-up: the services over the test database (media in memory) and the
 * allowed admin signed in before the tests; `call` runs a loader or action as that admin.
 */
export function signedInAdminRoutes(
  base: string,
  t: ReturnType<typeof setupTestDatabase>,
  storage: MediaStorage = memoryStorage(),
) {
  const current = {} as { services: Services; admin: Awaited<ReturnType<typeof signedInAs>> }
  beforeAll(async () => {
    const config = testAuthConfig(base)
    current.services = testServices({
      database: t.database,
      auth: config,
      media: { kind: 'local', storage, publicBase: '/media/' },
    })
    current.admin = await signedInAs(t.db, config, ADMIN_EMAIL)
  })
  return { current, call: adminCaller(base, () => current) }
}
