import { Link, useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import {
  ActionMessage,
  dangerButtonClass,
  FormMessage,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { ProductImage } from '#app/components/product-image.tsx'
import {
  CATEGORY_DELETE_MESSAGES,
  deleteCategory,
  listAdminCategories,
} from '#app/modules/catalog/admin-categories.server.ts'
import { CATEGORY_MESSAGES } from '#app/modules/catalog/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/list'
import { successAnswer } from '#app/utils/action-answer.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { ADMIN_CATEGORIES_PATH, ADMIN_CATEGORY_CREATE_PATH, adminCategoryEditPath } from '#app/utils/paths.ts'

export const meta: Route.MetaFunction = () => [{ title: 'Categorías | Administración' }]

const NOTICES: Record<string, string> = {
  creada: CATEGORY_MESSAGES.created,
  actualizada: CATEGORY_MESSAGES.updated,
}

/** What the "Eliminar" button asks before posting (where scripts run; a plain post deletes at once). */
export const deleteCategoryConfirm = (name: string) =>
  `¿Estás seguro de que quieres eliminar la categoría «${name}»?`

export async function loader({ url, context }: Route.LoaderArgs) {
  const notice = url.searchParams.get('aviso')
  return {
    categories: await listAdminCategories(servicesOf(context).reads),
    notice: notice ? (NOTICES[notice] ?? null) : null,
  }
}

/** POST intent=eliminar&id=…: deletes a category no product is in (`deleteCategory`). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await requireFormData(request)
  const id = form.get('id')
  const target = form.get('intent') === 'eliminar' && typeof id === 'string' && id !== '' ? id : null
  try {
    if (!target) throw new Refusal(CATEGORY_DELETE_MESSAGES.failed, { status: 400 })
    const { database, media } = servicesOf(context)
    const { name } = await deleteCategory(database.db, media.storage, target)
    return successAnswer(CATEGORY_DELETE_MESSAGES.deleted(name), { id: target })
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: CATEGORY_DELETE_MESSAGES.failed }, { id: target })
  }
}

/** "Sin productos", "1 producto", "12 productos". */
function productCountText(count: number): string {
  if (count === 0) return 'Sin productos'
  return count === 1 ? '1 producto' : `${formatCount(count)} productos`
}

/**
 * "Eliminar" as a plain form post to this page's action, so it works before scripts run; where
 * they do, it asks first, as the inventory grid's "Eliminar" does.
 */
function DeleteCategoryForm({ category }: { category: { id: string; name: string } }) {
  const navigation = useNavigation()
  const deleting =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'eliminar' &&
    navigation.formData.get('id') === category.id
  return (
    <AdminForm
      method="post"
      // Posted to the bare list address: a notice left in it ("?aviso=creada") goes away.
      action={ADMIN_CATEGORIES_PATH}
      onSubmit={(event) => {
        if (!window.confirm(deleteCategoryConfirm(category.name))) event.preventDefault()
      }}
    >
      <input type="hidden" name="intent" value="eliminar" />
      <input type="hidden" name="id" value={category.id} />
      <button
        type="submit"
        className={dangerButtonClass}
        disabled={deleting}
        aria-label={`Eliminar ${category.name}`}
      >
        Eliminar
      </button>
    </AdminForm>
  )
}

export default function AdminCategories({ loaderData, actionData }: Route.ComponentProps) {
  const { categories, notice } = loaderData
  return (
    <section aria-labelledby="categories-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="categories-title" className="text-2xl font-semibold">
          Categorías
        </h1>
        <Link to={ADMIN_CATEGORY_CREATE_PATH} className={primaryButtonClass}>
          Crear categoría
        </Link>
      </div>
      <FormMessage message={notice} tone="success" />
      <ActionMessage answer={actionData} />
      {categories.length === 0 ? (
        <p
          data-testid="categories-empty"
          className="rounded-xl border border-brand-100 bg-white p-6 text-center"
        >
          {CATEGORY_MESSAGES.empty}
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="category-list">
          {categories.map((category) => (
            <li
              key={category.id}
              data-testid="category-item"
              data-id={category.id}
              className="flex items-start gap-3 rounded-xl border border-brand-100 bg-white p-3 shadow-sm"
            >
              <ProductImage
                image={category.image}
                sizes="64px"
                className="size-16 shrink-0 rounded-lg object-cover"
              />
              <div className="flex min-w-0 flex-1 flex-col gap-2">
                <div className="min-w-0">
                  <p className="truncate font-medium" data-testid="category-name" title={category.name}>
                    {category.name}
                  </p>
                  <p className="text-xs text-gray-600" data-testid="category-products">
                    {productCountText(category.productCount)}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Link
                    to={adminCategoryEditPath(category.id)}
                    className={secondaryButtonClass}
                    aria-label={`Editar ${category.name}`}
                  >
                    Editar
                  </Link>
                  <DeleteCategoryForm category={category} />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
