import { useRef, useState, type FormEvent } from 'react'
import { SeoFields, type SeoShop } from './seo-fields.tsx'
import { CsrfField, useCsrfToken } from '#app/components/admin/admin-form.tsx'
import {
  FormMessage,
  inputClass,
  labelClass,
  primaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { SIGN_IN_AGAIN_LABEL } from '#app/modules/auth/messages.ts'
import {
  CATEGORY_MESSAGES,
  PACKAGE_FIELDS,
  PRODUCT_MESSAGES,
  type PackageFieldName,
} from '#app/modules/catalog/validators.ts'
import {
  MAX_FILES_PER_POST,
  MAX_IMAGE_BYTES,
  MAX_VIDEO_BYTES,
  UPLOAD_MESSAGES,
} from '#app/modules/media/validators.ts'
import { ADMIN_PRODUCT_SAVE_PATH } from '#app/utils/paths.ts'
import { VAT_LABELS, VAT_RATES, type VatRate } from '#app/utils/vat.ts'
import { Field, fieldHintId } from './field.tsx'
import { isVideo, MediaPicker } from './media-picker.tsx'
import { PriceFields } from './price-fields.tsx'
import { postWithProgress, withReturn, type SaveResult } from './product-upload.ts'

export type ProductFormCategory = { id: string; name: string }

/** A checkbox and its label as one target a finger can hit (at least 24 × 24 px, WCAG 2.5.8). */
const checkLabelClass =
  'inline-flex min-h-9 cursor-pointer items-center gap-2 rounded-lg px-1 text-sm hover:bg-brand-50'
const checkboxClass = 'size-5 shrink-0 accent-brand-600'

export type ProductFormValues = {
  sku: string
  name: string
  description: string
  categoryIds: string[]
  cost: number
  level1: number
  level5: number
  discountPercent: number
  purchaseLink: string
  supplierInfo: string
  showWholesale: boolean
  showRetail: boolean
  personalUse: boolean
  /** IVA on its invoices; null follows the shop's default ("Configuraciones"). */
  vat: VatRate | null
  /** "Empaque para envíos" (grams, centimetres); null takes the shop's default package. */
  weightGrams: number | null
  lengthCm: number | null
  widthCm: number | null
  heightCm: number | null
  /** Media id of the current main image (edit only). */
  mainMediaId: number | null
  /** "SEO": the URL's slug ('' on a new product: made from the name) and the search result's texts ('' the defaults). */
  slug: string
  seoTitle: string
  seoDescription: string
}

export const EMPTY_PRODUCT: ProductFormValues = {
  sku: '',
  name: '',
  description: '',
  categoryIds: [],
  cost: 0,
  level1: 0,
  level5: 0,
  discountPercent: 0,
  purchaseLink: '',
  supplierInfo: '',
  showWholesale: false,
  showRetail: true,
  personalUse: false,
  vat: null,
  weightGrams: null,
  lengthCm: null,
  widthCm: null,
  heightCm: null,
  mainMediaId: null,
  slug: '',
  seoTitle: '',
  seoDescription: '',
}

/** The shop's default package ("Configuraciones"): grams and centimetres. */
export type DefaultPackage = Record<PackageFieldName, number>

/** Each package field's label in the form. */
const PACKAGE_LABELS: Record<PackageFieldName, string> = {
  weightGrams: 'Peso (g)',
  lengthCm: 'Largo (cm)',
  widthCm: 'Ancho (cm)',
  heightCm: 'Alto (cm)',
}

/**
 * The create and edit product form (spec §5): its markup and submit. Prices (price-fields.tsx), the
 * media picker (media-picker.tsx) and the upload client (product-upload.ts) live beside it. Without
 * JavaScript it posts to the page's action; with it, an upload with progress.
 */
export function ProductForm({
  mode,
  categories,
  initial,
  existingMediaCount = 0,
  defaultVat,
  defaultPackage,
  seoShop,
  shareImage = '/og-image.jpg',
  onSaved,
}: {
  mode: 'create' | 'edit'
  categories: ProductFormCategory[]
  initial: ProductFormValues
  existingMediaCount?: number
  /** The shop's default IVA ("Configuraciones"), named by the select's first option. */
  defaultVat: VatRate
  /** The shop's default package, named by the hint of "Empaque para envíos". */
  defaultPackage: DefaultPackage
  /** The shop's name and public origin, for the Google and WhatsApp previews. */
  seoShop: SeoShop
  /** The link card's picture in the WhatsApp preview: the main image, else the shop's logo. */
  shareImage?: string
  onSaved: (result: Extract<SaveResult, { ok: true }>) => void
}) {
  const csrf = useCsrfToken()
  const formRef = useRef<HTMLFormElement>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const [files, setFiles] = useState<File[]>([])
  const [mainNew, setMainNew] = useState<number | null>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const [message, setMessage] = useState<{ text: string; at: number; signIn?: string } | null>(null)

  const fail = (text: string, signIn?: string) => setMessage({ text, at: Date.now(), signIn })

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const text = (name: string) => String(data.get(name) ?? '').trim()
    if (!text('name') || !text('description') || data.getAll('categoryIds').length === 0) {
      return fail(PRODUCT_MESSAGES.required)
    }
    // Create, or an edit of a product that has no image yet: images and a main one are required.
    const needsImages = mode === 'create' || initial.mainMediaId === null
    if (needsImages && existingMediaCount === 0 && files.length === 0) {
      return fail(PRODUCT_MESSAGES.imagesRequiredForm)
    }
    if (needsImages && mainNew === null) return fail(PRODUCT_MESSAGES.mainImageRequiredForm)
    // The server decides by content; refusing obvious oversize files here saves the upload.
    // Upload refusals are not spec §5 texts: they read "Error: {message}" (spec §8), as the
    // server's do.
    if (files.length > MAX_FILES_PER_POST) return fail(PRODUCT_MESSAGES.failure(UPLOAD_MESSAGES.tooMany))
    for (const file of files) {
      if (isVideo(file) && file.size > MAX_VIDEO_BYTES) {
        return fail(PRODUCT_MESSAGES.failure(UPLOAD_MESSAGES.videoTooLarge(file.name)))
      }
      if (file.size > MAX_VIDEO_BYTES)
        return fail(PRODUCT_MESSAGES.failure(UPLOAD_MESSAGES.tooLarge(file.name)))
      if (file.type.startsWith('image/') && file.size > MAX_IMAGE_BYTES) {
        return fail(PRODUCT_MESSAGES.failure(UPLOAD_MESSAGES.imageTooLarge(file.name)))
      }
    }
    data.delete('images')
    for (const file of files) data.append('images', file, file.name)
    setMessage(null)
    setProgress(0)
    const result = await postWithProgress(ADMIN_PRODUCT_SAVE_PATH, data, csrf, setProgress)
    setProgress(null)
    if (!result.ok) return fail(result.message, result.signIn && withReturn(result.signIn))
    setFiles([])
    setMainNew(null)
    if (fileInput.current) fileInput.current.value = ''
    onSaved(result)
  }

  return (
    <form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-5 rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
      data-testid="product-form"
      noValidate={false}
    >
      <CsrfField />
      <FormMessage
        message={message?.text}
        tone="error"
        nonce={message?.at}
        link={message?.signIn ? { href: message.signIn, label: SIGN_IN_AGAIN_LABEL } : null}
      />
      {mode === 'edit' ? (
        <Field id="product-sku" label="SKU">
          <input
            id="product-sku"
            name="sku"
            readOnly
            value={initial.sku}
            className={`${inputClass} bg-gray-50 font-mono`}
          />
        </Field>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <Field id="product-name" label="Nombre">
          <input
            id="product-name"
            name="name"
            maxLength={120}
            defaultValue={initial.name}
            className={inputClass}
          />
        </Field>
        <Field id="product-description" label="Descripción" className="md:row-span-2">
          <textarea
            id="product-description"
            name="description"
            rows={4}
            maxLength={5000}
            defaultValue={initial.description}
            className={inputClass}
          />
        </Field>
        <fieldset>
          <legend className={labelClass}>Categorías</legend>
          {categories.length === 0 ? (
            <p className="text-sm text-gray-600" data-testid="categories-empty">
              {CATEGORY_MESSAGES.empty}
            </p>
          ) : (
            <div className="flex flex-wrap gap-x-2 gap-y-1">
              {categories.map((category) => (
                <label key={category.id} className={checkLabelClass}>
                  <input
                    type="checkbox"
                    name="categoryIds"
                    value={category.id}
                    defaultChecked={initial.categoryIds.includes(category.id)}
                    className={checkboxClass}
                  />
                  {category.name}
                </label>
              ))}
            </div>
          )}
        </fieldset>
      </div>

      <PriceFields initial={initial} blankZeros={mode === 'create'} />

      <div className="grid gap-4 md:grid-cols-2">
        <Field id="product-purchase-link" label="Link de compra">
          <input
            id="product-purchase-link"
            name="purchaseLink"
            type="url"
            defaultValue={initial.purchaseLink}
            placeholder="https://"
            className={inputClass}
          />
        </Field>
        <Field id="product-supplier" label="Información del proveedor">
          <textarea
            id="product-supplier"
            name="supplierInfo"
            rows={2}
            defaultValue={initial.supplierInfo}
            className={inputClass}
          />
        </Field>
      </div>

      <div className="grid gap-4 md:grid-cols-2">
        <Field
          id="product-vat"
          label="IVA"
          hint="El IVA de la factura electrónica de este producto. Si sigue la configuración, cambia con el IVA por defecto de la tienda."
        >
          <select
            id="product-vat"
            name="vat"
            defaultValue={initial.vat ?? ''}
            aria-describedby={fieldHintId('product-vat')}
            className={inputClass}
          >
            <option value="">{`Según la configuración (${VAT_LABELS[defaultVat]})`}</option>
            {VAT_RATES.map((rate) => (
              <option key={rate} value={rate}>
                {VAT_LABELS[rate]}
              </option>
            ))}
          </select>
        </Field>
      </div>

      <fieldset data-testid="product-package">
        <legend className="mb-2 text-base font-semibold">Empaque para envíos</legend>
        <p id="product-package-hint" className="mb-2 text-xs text-gray-600">
          {`El paquete de este producto para cotizar y generar guías. Un campo vacío usa el paquete por defecto de Configuraciones (${defaultPackage.weightGrams.toLocaleString('es-CO')} g, ${defaultPackage.lengthCm} × ${defaultPackage.widthCm} × ${defaultPackage.heightCm} cm).`}
        </p>
        <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
          {PACKAGE_FIELDS.map(({ name, bounds }) => (
            <Field key={name} id={`product-${name}`} label={PACKAGE_LABELS[name]}>
              <input
                id={`product-${name}`}
                name={name}
                type="number"
                min={bounds.min}
                max={bounds.max}
                step={1}
                inputMode="numeric"
                defaultValue={initial[name] ?? ''}
                placeholder={String(defaultPackage[name])}
                aria-describedby="product-package-hint"
                className={inputClass}
              />
            </Field>
          ))}
        </div>
      </fieldset>

      <fieldset className="flex flex-wrap gap-x-6 gap-y-1">
        <legend className="mb-2 text-base font-semibold">Visibilidad</legend>
        <label className={checkLabelClass}>
          <input
            type="checkbox"
            name="showWholesale"
            defaultChecked={initial.showWholesale}
            className={checkboxClass}
          />
          Mostrar a mayoristas (Mayor)
        </label>
        <label className={checkLabelClass}>
          <input
            type="checkbox"
            name="showRetail"
            defaultChecked={initial.showRetail}
            className={checkboxClass}
          />
          Mostrar al detal (Detal)
        </label>
      </fieldset>

      <fieldset className="flex flex-col gap-1">
        <legend className="mb-2 text-base font-semibold">Derecho de retracto</legend>
        <label className={checkLabelClass}>
          <input
            type="checkbox"
            name="personalUse"
            defaultChecked={initial.personalUse}
            aria-describedby="product-personal-use-hint"
            className={checkboxClass}
          />
          Bien de uso personal (sin derecho de retracto)
        </label>
        <p id="product-personal-use-hint" className="text-xs text-gray-600">
          La Ley 1480 (art. 47) permite excluir del retracto los bienes de uso personal, como los aretes. La
          página del producto se lo dice al cliente antes de comprar. Desmarcado: el producto admite retracto.
        </p>
      </fieldset>

      <SeoFields
        kind="product"
        keySegment={mode === 'edit' ? initial.sku : null}
        initial={{ slug: initial.slug, seoTitle: initial.seoTitle, seoDescription: initial.seoDescription }}
        initialText={{ name: initial.name, description: initial.description }}
        shop={seoShop}
        image={shareImage}
      />

      <MediaPicker
        mode={mode}
        inputRef={fileInput}
        files={files}
        onFiles={setFiles}
        mainNew={mainNew}
        onMainNew={setMainNew}
        currentMainId={initial.mainMediaId}
        existingMediaCount={existingMediaCount}
      />

      {progress !== null ? (
        <div data-testid="upload-progress" className="flex items-center gap-3 text-sm">
          <progress value={progress} max={1} className="w-48" aria-label="Progreso de la subida" />
          <span>Subiendo… {Math.round(progress * 100)} %</span>
        </div>
      ) : null}

      <div>
        <button type="submit" className={primaryButtonClass} disabled={progress !== null}>
          {mode === 'edit' ? 'Guardar cambios' : 'Crear producto'}
        </button>
      </div>
    </form>
  )
}
