import { getDb } from '#app/db/client.server.ts'
import { requireAdmin } from '#app/modules/auth/guard.server.ts'
import { saveProductForm } from '#app/modules/catalog/admin-forms.server.ts'
import { getMediaStorage } from '#app/modules/media/config.server.ts'
import type { Route } from './+types/save'
import { requireFormData } from '#app/utils/forms.server.ts'

/**
 * POST /admin/productos/guardar: the product form sent with upload progress (XMLHttpRequest).
 * Creates (no `sku`) or updates; answers JSON `{ ok, sku?, message }`.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request)
  const form = await requireFormData(request)
  const sku = form.get('sku')
  const result = await saveProductForm(
    getDb(),
    getMediaStorage(),
    form,
    typeof sku === 'string' && sku !== '' ? sku : undefined,
  )
  return Response.json(result, { status: result.ok ? 200 : 422 })
}
