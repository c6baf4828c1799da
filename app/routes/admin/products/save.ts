import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { saveProductForm } from '#app/modules/catalog/admin-forms.server.ts'
import { PRODUCT_SAVE_FAILURE } from '#app/modules/catalog/validators.ts'
import { jsonFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/save'

/**
 * POST /admin/productos/guardar: the product form sent with upload progress (XMLHttpRequest).
 * Creates (no `sku`) or updates; answers JSON `{ ok, sku?, message }`, refusals included (the admin
 * middleware answers an ended session with the way back in, and too many uploads, in JSON too).
 */
export async function action({ request, context }: Route.ActionArgs) {
  try {
    const admin = signedInAdminOf(context)
    const form = await requireFormData(request)
    const sku = form.get('sku')
    const { database, media } = servicesOf(context)
    const saved = await saveProductForm(
      database.db,
      media.storage,
      form,
      admin.email,
      typeof sku === 'string' && sku !== '' ? sku : undefined,
    )
    return Response.json({ ok: true, ...saved })
  } catch (thrown) {
    return jsonFailure(thrown, request, PRODUCT_SAVE_FAILURE)
  }
}
