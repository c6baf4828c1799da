import { Link } from 'react-router'
import { FormMessage, primaryButtonClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import { ProductImage } from '#app/components/product-image.tsx'
import { listAdminCategories } from '#app/modules/catalog/admin-categories.server.ts'
import { CATEGORY_MESSAGES } from '#app/modules/catalog/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/list'
import { ADMIN_CATEGORY_CREATE_PATH, adminCategoryEditPath } from '#app/utils/paths.ts'

export const meta: Route.MetaFunction = () => [{ title: 'Categorías | Administración' }]

const NOTICES: Record<string, string> = {
  creada: CATEGORY_MESSAGES.created,
  actualizada: CATEGORY_MESSAGES.updated,
}

export async function loader({ url, context }: Route.LoaderArgs) {
  const notice = url.searchParams.get('aviso')
  return {
    categories: await listAdminCategories(servicesOf(context).reads),
    notice: notice ? (NOTICES[notice] ?? null) : null,
  }
}

export default function AdminCategories({ loaderData }: Route.ComponentProps) {
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
              className="flex items-center gap-3 rounded-xl border border-brand-100 bg-white p-3 shadow-sm"
            >
              <ProductImage
                image={category.image}
                sizes="64px"
                className="size-16 shrink-0 rounded-lg object-cover"
              />
              <p className="min-w-0 flex-1 truncate font-medium" data-testid="category-name">
                {category.name}
              </p>
              <Link
                to={adminCategoryEditPath(category.id)}
                className={secondaryButtonClass}
                aria-label={`Editar ${category.name}`}
              >
                Editar
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
