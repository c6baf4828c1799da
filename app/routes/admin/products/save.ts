import { requireAdmin } from '#app/modules/auth/guard.server.ts'
import { adminScriptAnswer } from '#app/modules/auth/script-answer.server.ts'
import { saveProductForm } from '#app/modules/catalog/admin-forms.server.ts'
import { PRODUCT_SAVE_FAILURE } from '#app/modules/catalog/validators.ts'
import { carriesFile } from '#app/modules/media/form-uploads.server.ts'
import { jsonFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { getServices } from '#app/services.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import type { Route } from './+types/save'

/**
 * POST /admin/productos/guardar: the product form sent with upload progress (XMLHttpRequest).
 * Creates (no `sku`) or updates; answers JSON `{ ok, sku?, message }`, refusals included (an ended
 * session answers with the way back in: `adminScriptAnswer`).
 */
export async function action({ request, context }: Route.ActionArgs) {
  try {
    const admin = await requireAdmin(request)
    const form = await requireFormData(request)
    if (carriesFile(form)) await getServices().rateLimits.require('upload', clientAddressOf(context))
    const sku = form.get('sku')
    const saved = await saveProductForm(
      getServices().database.db,
      getServices().media.storage,
      form,
      admin.email,
      typeof sku === 'string' && sku !== '' ? sku : undefined,
    )
    return Response.json({ ok: true, ...saved })
  } catch (thrown) {
    return jsonFailure(thrown, request, PRODUCT_SAVE_FAILURE, adminScriptAnswer)
  }
}
