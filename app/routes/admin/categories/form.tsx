import { useState } from 'react'
import { Link, redirect, useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import {
  ActionMessage,
  FormMessage,
  inputClass,
  primaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { Field } from '#app/components/admin/field.tsx'
import { ProductImage } from '#app/components/product-image.tsx'
import {
  createCategory,
  getAdminCategory,
  updateCategory,
} from '#app/modules/catalog/admin-categories.server.ts'
import { CATEGORY_MESSAGES, categorySaveFailure, seoFieldValues } from '#app/modules/catalog/validators.ts'
import { listCategoryProducts } from '#app/modules/catalog/catalog.server.ts'
import { SeoFields } from '#app/components/admin/seo-fields.tsx'
import { uploadsFrom } from '#app/modules/media/form-uploads.server.ts'
import type { Route } from './+types/form'
import { failureAnswer, type ActionAnswer } from '#app/utils/action-answer.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { ADMIN_CATEGORIES_PATH } from '#app/utils/paths.ts'

/** /admin/categorias/crear and /admin/categorias/editar/{id}: one form, two routes. */

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `${params.id ? 'Editar' : 'Crear'} categoría | Administración` },
]

export async function loader({ params, context }: Route.LoaderArgs) {
  const { reads, env } = servicesOf(context)
  /** The Google and WhatsApp previews of "SEO": the shop's name and public origin. */
  const seoShop = { storeName: env.STORE_NAME, origin: env.publicUrl }
  if (!params.id) return { mode: 'create' as const, category: null, seoShop, shareImage: null }
  const category = await getAdminCategory(reads, params.id)
  // The category page's link preview shows its first product's picture (category.tsx).
  const first = category ? (await listCategoryProducts(reads, category.id, 0, 1)).items[0] : undefined
  return { mode: 'edit' as const, category, seoShop, shareImage: first?.image?.src ?? null }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await requireFormData(request)
  try {
    const [image] = await uploadsFrom(form, 'image')
    const input = { name: form.get('name'), image: image ?? null, seo: seoFieldValues(form) }
    const { database, media } = servicesOf(context)
    if (params.id) {
      await updateCategory(database.db, media.storage, params.id, input)
      return redirect(`${ADMIN_CATEGORIES_PATH}?aviso=actualizada`)
    }
    await createCategory(database.db, media.storage, input)
    return redirect(`${ADMIN_CATEGORIES_PATH}?aviso=creada`)
  } catch (thrown) {
    return formFailure(thrown, request, categorySaveFailure(Boolean(params.id)))
  }
}

export default function CategoryForm({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, category, seoShop, shareImage } = loaderData
  const navigation = useNavigation()
  // The name checked before posting, said the way the action says its refusals.
  const [clientMessage, setClientMessage] = useState<ActionAnswer | null>(null)
  if (mode === 'edit' && !category) {
    return (
      <section className="flex flex-col items-start gap-4">
        <FormMessage message={CATEGORY_MESSAGES.notFound} tone="error" />
        <Link to={ADMIN_CATEGORIES_PATH} className="text-brand-700 underline">
          Volver a categorías
        </Link>
      </section>
    )
  }
  return (
    <section aria-labelledby="category-form-title" className="flex max-w-4xl flex-col gap-4">
      <h1 id="category-form-title" className="text-2xl font-semibold">
        {mode === 'edit' ? 'Editar categoría' : 'Crear categoría'}
      </h1>
      <ActionMessage answer={clientMessage ?? actionData} />
      <AdminForm
        method="post"
        encType="multipart/form-data"
        className="flex flex-col gap-4 rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
        onSubmit={(event) => {
          const name = new FormData(event.currentTarget).get('name')
          if (typeof name !== 'string' || name.trim() === '') {
            event.preventDefault()
            setClientMessage(failureAnswer(CATEGORY_MESSAGES.nameRequired))
          } else {
            setClientMessage(null)
          }
        }}
      >
        <Field id="category-name" label="Nombre">
          <input
            id="category-name"
            name="name"
            type="text"
            maxLength={80}
            defaultValue={category?.name ?? ''}
            className={inputClass}
          />
        </Field>
        <Field
          id="category-image"
          label={`Imagen ${mode === 'edit' ? '(opcional, reemplaza la actual)' : '(opcional)'}`}
        >
          {category?.image ? (
            <ProductImage
              image={category.image}
              sizes="96px"
              className="mb-2 size-24 rounded-lg object-cover"
            />
          ) : null}
          <input id="category-image" name="image" type="file" accept="image/*" className="block text-sm" />
        </Field>
        <SeoFields
          kind="category"
          keySegment={category?.id ?? null}
          initial={{
            slug: category?.slug ?? '',
            seoTitle: category?.seoTitle ?? '',
            seoDescription: category?.seoDescription ?? '',
          }}
          initialText={{ name: category?.name ?? '', description: '' }}
          shop={seoShop}
          image={shareImage ?? '/og-image.jpg'}
        />
        <div className="flex items-center gap-3">
          <button type="submit" className={primaryButtonClass} disabled={navigation.state === 'submitting'}>
            {mode === 'edit' ? 'Guardar cambios' : 'Crear categoría'}
          </button>
          <Link to={ADMIN_CATEGORIES_PATH} className="text-sm text-brand-700 underline">
            Cancelar
          </Link>
        </div>
      </AdminForm>
    </section>
  )
}
