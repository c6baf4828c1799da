import { auditCsv, auditForExport } from '#app/modules/audit/audit.server.ts'
import { securityQueryOf } from '#app/modules/audit/validators.ts'
import { signInHistory, signInsCsv } from '#app/modules/auth/security.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { bogotaDay } from '#app/utils/bogota-days.ts'
import { csvDownload } from '#app/utils/spreadsheet-csv.ts'
import type { Route } from './+types/security-csv'

/** Up to this many sign-ins in one export (a year of a small team's is far fewer). */
const SIGN_IN_EXPORT_LIMIT = 50_000

/** GET /admin/seguridad/csv?ver=cambios|ingresos&q=&desde=&hasta= (owners): the list as CSV. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const { db } = servicesOf(context).database
  const query = securityQueryOf(url.searchParams)
  const filters = { q: query.q, from: query.desde, to: query.hasta }
  const today = bogotaDay(new Date())
  if (query.ver === 'ingresos') {
    const { signIns } = await signInHistory(db, filters, null, SIGN_IN_EXPORT_LIMIT)
    return csvDownload(signInsCsv(signIns), `inicios-de-sesion-${today}.csv`)
  }
  return csvDownload(auditCsv(await auditForExport(db, filters)), `registro-de-cambios-${today}.csv`)
}
