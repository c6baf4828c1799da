import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { changesBetween, noteAuditChanges } from '#app/modules/audit/changes.ts'
import { saveProductForm, type ProductFigures } from '#app/modules/catalog/admin-forms.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { PRODUCT_SAVE_FAILURE } from '#app/modules/catalog/validators.ts'
import { jsonFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/save'

const FIGURE_LABELS = {
  cost: 'Costo',
  priceLevel1: 'Precio nivel 1',
  priceLevel2: 'Precio nivel 2',
  priceLevel3: 'Precio nivel 3',
  priceLevel4: 'Precio nivel 4',
  priceLevel5: 'Precio nivel 5',
  discountPercent: 'Descuento',
} as const

function shownFigures(figures: ProductFigures | null) {
  if (!figures) return null
  return Object.fromEntries(
    Object.entries(figures).map(([key, value]) => [
      key,
      key === 'discountPercent' ? `${value} %` : formatCOP(value),
    ]),
  )
}

/** The prices and cost a save changed, for the audit log of "Seguridad". */
function productFigureChanges(sku: string, before: ProductFigures | null, after: ProductFigures | null) {
  return changesBetween(`Producto ${sku}`, FIGURE_LABELS, shownFigures(before), shownFigures(after))
}

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
    const { figures, ...answer } = saved
    noteAuditChanges(context, productFigureChanges(saved.sku, figures.before, figures.after))
    return Response.json({ ok: true, ...answer })
  } catch (thrown) {
    return jsonFailure(thrown, request, PRODUCT_SAVE_FAILURE)
  }
}
