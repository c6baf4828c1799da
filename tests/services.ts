import type { Database } from '#app/db/client.server.ts'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import type { AuthConfig } from '#app/modules/auth/config.server.ts'
import type { MediaSettings } from '#app/modules/media/config.server.ts'
import { buildServices, type Services } from '#app/services.server.ts'
import { parseEnv, type Env } from '#app/utils/env.server.ts'

/** Tests that need no database (media URLs, storage): any use of it is a mistake in the test. */
const unopened = (name: string | symbol): never => {
  throw new Error(`Esta prueba no abrió una base de datos (se usó ${String(name)})`)
}
const NO_DATABASE = {
  db: new Proxy({}, { get: (_target, name) => unopened(name) }),
  kind: 'pglite',
  executeSql: () => unopened('executeSql'),
  oneAtATime: () => unopened('oneAtATime'),
  close: async () => {},
} as unknown as Database

/**
 * A services registry for route and module tests: the given parts, the local configuration for the
 * rest, and a job queue that only records (nothing runs). Routes get it in their context: `routeContext`
 * (tests/routes.ts).
 */
export function testServices(
  parts: { database?: Database; auth?: AuthConfig; media?: MediaSettings; env?: Env } = {},
): Services {
  return buildServices(parts.env ?? parseEnv({}), parts.database ?? NO_DATABASE, recordingJobQueue(), {
    auth: parts.auth,
    media: parts.media,
  })
}
