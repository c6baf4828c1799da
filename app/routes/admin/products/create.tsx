import { redirect, useNavigate } from 'react-router'
import { ActionMessage } from '#app/components/admin/form-message.tsx'
import { EMPTY_PRODUCT, ProductForm } from '#app/components/admin/product-form.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { listAdminCategories } from '#app/modules/catalog/admin-categories.server.ts'
import { saveProductForm } from '#app/modules/catalog/admin-forms.server.ts'
import type { Route } from './+types/create'
import { PRODUCT_SAVE_FAILURE } from '#app/modules/catalog/validators.ts'
import { readCarrierSettings, readInvoiceSettings } from '#app/modules/settings/settings.server.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { adminProductEditPath } from '#app/utils/paths.ts'

export const meta: Route.MetaFunction = () => [{ title: 'Crear producto | Administración' }]

export async function loader({ context }: Route.LoaderArgs) {
  const { reads, env } = servicesOf(context)
  const [categories, invoicing, carrier] = await Promise.all([
    listAdminCategories(reads),
    readInvoiceSettings(reads.db),
    readCarrierSettings(reads.db, env),
  ])
  return {
    categories: categories.map(({ id, name }) => ({ id, name })),
    /** Named by the IVA select's "Según la configuración" option. */
    defaultVat: invoicing.defaultVat,
    /** Named by the hint of "Empaque para envíos": what an empty field takes. */
    defaultPackage: carrier.defaultPackage,
    /** The Google and WhatsApp previews of "SEO": the shop's name and public origin. */
    seoShop: { storeName: env.STORE_NAME, origin: env.publicUrl },
  }
}

/** Without JavaScript the form posts here; with it, to /admin/productos/guardar (upload progress). */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const form = await requireFormData(request)
  try {
    const { database, media } = servicesOf(context)
    const saved = await saveProductForm(database.db, media.storage, form, admin.email)
    return redirect(`${adminProductEditPath(saved.sku)}?aviso=creado`)
  } catch (thrown) {
    return formFailure(thrown, request, PRODUCT_SAVE_FAILURE)
  }
}

export default function CreateProduct({ loaderData, actionData }: Route.ComponentProps) {
  const navigate = useNavigate()
  return (
    <section aria-labelledby="create-product-title" className="flex flex-col gap-4">
      <h1 id="create-product-title" className="text-2xl font-semibold">
        Crear producto
      </h1>
      <ActionMessage answer={actionData} />
      <ProductForm
        mode="create"
        categories={loaderData.categories}
        initial={EMPTY_PRODUCT}
        defaultVat={loaderData.defaultVat}
        defaultPackage={loaderData.defaultPackage}
        seoShop={loaderData.seoShop}
        onSaved={(result) => navigate(`${adminProductEditPath(result.sku)}?aviso=creado`)}
      />
    </section>
  )
}
