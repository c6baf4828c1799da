import { useEffect, useState } from 'react'
import { Link, useFetcher, useRevalidator, useSearchParams } from 'react-router'
import { useCsrfToken } from '#app/components/admin/admin-form.tsx'
import {
  ActionMessage,
  dangerButtonClass,
  FormMessage,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { DISMISS_MISSING_INTENT, MissingMediaNotice } from '#app/components/admin/missing-media-notice.tsx'
import { ProductForm } from '#app/components/admin/product-form.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { listAdminCategories } from '#app/modules/catalog/admin-categories.server.ts'
import { saveProductForm } from '#app/modules/catalog/admin-forms.server.ts'
import { getEditableProduct } from '#app/modules/catalog/admin-products.server.ts'
import { dismissMissingMedia, listMissingMedia } from '#app/modules/catalog/missing-media.server.ts'
import { deleteProductImage, setMainImage } from '#app/modules/catalog/product-media.server.ts'
import { PRODUCT_MESSAGES, PRODUCT_SAVE_FAILURE } from '#app/modules/catalog/validators.ts'
import { readCarrierSettings, readInvoiceSettings } from '#app/modules/settings/settings.server.ts'
import type { Route } from './+types/edit'
import { failureAnswer, successAnswer, type ActionAnswer } from '#app/utils/action-answer.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { ADMIN_PRODUCTS_PATH, productPath } from '#app/utils/paths.ts'
import { adminKardexPath, adminStockEntryPath, adminStockExitPath } from '#app/utils/admin-paths.ts'

export const meta: Route.MetaFunction = () => [{ title: 'Editar producto | Administración' }]

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const { reads, env } = servicesOf(context)
  const [product, categories, missingFiles, invoicing, carrier] = await Promise.all([
    getEditableProduct(reads, params.sku),
    listAdminCategories(reads),
    listMissingMedia(reads.db, params.sku),
    readInvoiceSettings(reads.db),
    readCarrierSettings(reads.db, env),
  ])
  const notice = url.searchParams.get('aviso')
  return {
    product,
    categories: categories.map(({ id, name }) => ({ id, name })),
    missingFiles,
    /** Named by the IVA select's "Según la configuración" option. */
    defaultVat: invoicing.defaultVat,
    /** Named by the hint of "Empaque para envíos": what an empty field takes. */
    defaultPackage: carrier.defaultPackage,
    /** The Google and WhatsApp previews of "SEO": the shop's name and public origin. */
    seoShop: { storeName: env.STORE_NAME, origin: env.publicUrl },
    notice: notice === 'creado' ? PRODUCT_MESSAGES.created : null,
  }
}

const MISSING_DISMISS_FAILED = 'No se pudo quitar el archivo de la lista. Intenta de nuevo.'

/** A media row id as the form sends it; anything else (a fraction, junk, past int32) is none. */
function mediaIdFrom(value: FormDataEntryValue | null): number | null {
  return typeof value === 'string' && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null
}

/**
 * Intents: `principal` (change the main image), `eliminar-imagen` (delete a non-main image),
 * `descartar-archivo` (take a file that could not be imported off the list), or the whole form
 * when JavaScript is off.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const { database, media } = servicesOf(context)
  const form = await requireFormData(request)
  const intent = form.get('intent')
  const mediaId = mediaIdFrom(form.get('mediaId'))
  if (intent === 'principal') {
    try {
      if (mediaId === null) throw new Refusal(PRODUCT_MESSAGES.mainImageFailed, { status: 400 })
      await setMainImage(database.db, params.sku, mediaId)
      return successAnswer('Imagen principal actualizada.')
    } catch (thrown) {
      return formFailure(thrown, request, { unexpected: PRODUCT_MESSAGES.mainImageFailed })
    }
  }
  if (intent === DISMISS_MISSING_INTENT) {
    const missingId = mediaIdFrom(form.get('missingId'))
    try {
      if (missingId === null) throw new Refusal(MISSING_DISMISS_FAILED, { status: 400 })
      await dismissMissingMedia(database.db, params.sku, missingId)
      return successAnswer('Archivo quitado de la lista.')
    } catch (thrown) {
      return formFailure(thrown, request, { unexpected: MISSING_DISMISS_FAILED })
    }
  }
  if (intent === 'eliminar-imagen') {
    try {
      if (mediaId === null) throw new Refusal(PRODUCT_MESSAGES.imageDeleteFailed, { status: 400 })
      await deleteProductImage(database.db, media.storage, params.sku, mediaId)
      return successAnswer('Imagen eliminada.')
    } catch (thrown) {
      return formFailure(thrown, request, { unexpected: PRODUCT_MESSAGES.imageDeleteFailed })
    }
  }
  try {
    const saved = await saveProductForm(database.db, media.storage, form, admin.email, params.sku)
    return successAnswer(saved.message)
  } catch (thrown) {
    return formFailure(thrown, request, PRODUCT_SAVE_FAILURE)
  }
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { product, categories, notice, missingFiles, defaultVat, defaultPackage, seoShop } = loaderData
  const csrf = useCsrfToken()
  const revalidator = useRevalidator()
  const mediaFetcher = useFetcher<typeof action>()
  const [, setSearchParams] = useSearchParams()
  // What the page says itself (the upload's outcome, a refusal before posting), in the actions' shape.
  const [saved, setSaved] = useState<ActionAnswer | null>(null)
  const [clientError, setClientError] = useState<ActionAnswer | null>(null)

  // A new outcome replaces the previous one on screen.
  const latest = [saved, clientError, mediaFetcher.data, actionData]
    .filter((answer): answer is ActionAnswer => Boolean(answer))
    .sort((a, b) => b.at - a.at)[0]

  useEffect(() => {
    // The "created" notice belongs to the first visit only: drop it from the address.
    if (notice) setSearchParams({}, { replace: true, preventScrollReset: true })
  }, [notice, setSearchParams])

  if (!product) {
    return (
      <section className="flex flex-col items-start gap-4">
        <FormMessage message={PRODUCT_MESSAGES.notFound} tone="error" />
        <Link to={ADMIN_PRODUCTS_PATH} className="text-brand-700 underline">
          Volver al inventario
        </Link>
      </section>
    )
  }
  const main = product.media.find((item) => item.isMain) ?? null
  const busy = mediaFetcher.state !== 'idle'

  return (
    <section aria-labelledby="edit-product-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="edit-product-title" className="text-2xl font-semibold">
          Editar producto
        </h1>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          <Link to={adminStockEntryPath(product.sku)} className="text-brand-700 underline">
            Entrada
          </Link>
          <Link to={adminStockExitPath(product.sku)} className="text-brand-700 underline">
            Salida
          </Link>
          <Link
            to={adminKardexPath(product.sku)}
            className="text-brand-700 underline"
            data-testid="edit-kardex"
          >
            Movimientos
          </Link>
          <Link to={productPath(product)} className="text-brand-700 underline">
            Ver en la tienda
          </Link>
        </div>
      </div>
      {latest ? <ActionMessage answer={latest} /> : <FormMessage message={notice} tone="success" />}

      <MissingMediaNotice files={missingFiles} fetcher={mediaFetcher} />

      <div className="rounded-xl border border-brand-100 bg-white p-4 shadow-sm">
        <h2 className="mb-3 text-base font-semibold">Imágenes</h2>
        {product.media.length === 0 ? (
          <p className="text-sm text-gray-600">Este producto aún no tiene imágenes: agrega al menos una.</p>
        ) : null}
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="product-media">
          {product.media.map((item, index) => (
            <li
              key={item.id}
              data-testid="product-media-item"
              data-main={item.isMain ? 'true' : 'false'}
              data-media-id={item.id}
              className={`flex flex-col gap-2 rounded-lg border p-2 ${item.isMain ? 'border-brand-600 ring-2 ring-brand-200' : 'border-brand-100'}`}
            >
              {item.image ? (
                <img
                  src={item.image.thumb}
                  alt={`Imagen ${index + 1} de ${product.name}`}
                  width={item.image.width}
                  height={item.image.height}
                  className="aspect-square w-full rounded object-cover"
                />
              ) : (
                <video src={item.url} muted className="aspect-square w-full rounded object-cover" />
              )}
              {item.isMain ? (
                <span className="text-center text-xs font-semibold text-brand-700">Imagen principal</span>
              ) : (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={busy}
                  onClick={() =>
                    mediaFetcher.submit(
                      { intent: 'principal', mediaId: String(item.id), csrf },
                      { method: 'post' },
                    )
                  }
                >
                  Usar como principal
                </button>
              )}
              <button
                type="button"
                className={dangerButtonClass}
                disabled={busy}
                onClick={() => {
                  // Refused before asking: a yes would only be answered with a no.
                  if (item.isMain) {
                    setClientError(failureAnswer(PRODUCT_MESSAGES.imageDeleteMain))
                    return
                  }
                  if (!window.confirm(PRODUCT_MESSAGES.imageDeleteConfirm)) return
                  mediaFetcher.submit(
                    { intent: 'eliminar-imagen', mediaId: String(item.id), csrf },
                    { method: 'post' },
                  )
                }}
              >
                Eliminar
              </button>
            </li>
          ))}
        </ul>
      </div>

      <ProductForm
        key={product.sku}
        mode="edit"
        categories={categories}
        existingMediaCount={product.media.length}
        defaultVat={defaultVat}
        defaultPackage={defaultPackage}
        initial={{
          sku: product.sku,
          name: product.name,
          description: product.description,
          categoryIds: product.categoryIds,
          cost: product.cost / 100,
          level1: product.priceLevel1 / 100,
          level5: product.priceLevel5 / 100,
          discountPercent: product.discountPercent,
          purchaseLink: product.purchaseLink ?? '',
          supplierInfo: product.supplierInfo ?? '',
          showWholesale: product.showWholesale,
          showRetail: product.showRetail,
          personalUse: product.personalUse,
          vat: product.vat,
          weightGrams: product.weightGrams,
          lengthCm: product.lengthCm,
          widthCm: product.widthCm,
          heightCm: product.heightCm,
          mainMediaId: main?.id ?? null,
          slug: product.slug,
          seoTitle: product.seoTitle ?? '',
          seoDescription: product.seoDescription ?? '',
        }}
        seoShop={seoShop}
        shareImage={main?.image?.src}
        onSaved={(result) => {
          setSaved(successAnswer(result.message))
          void revalidator.revalidate()
        }}
      />
    </section>
  )
}
