import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { CsrfField, useCsrfToken } from '#app/components/admin/admin-form.tsx'
import {
  FormMessage,
  inputClass,
  labelClass,
  primaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { levelPesos, PRICE_LEVEL_FACTORS } from '#app/modules/catalog/pricing.ts'
import { PRODUCT_MESSAGES } from '#app/modules/catalog/validators.ts'
import { MAX_IMAGE_BYTES, MAX_VIDEO_BYTES, UPLOAD_MESSAGES } from '#app/modules/media/validators.ts'
import { formatCOP, pesosToCentavos } from '#app/utils/money.ts'

export type ProductFormCategory = { id: string; name: string }

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
  /** Media id of the current main image (edit only). */
  mainMediaId: number | null
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
  mainMediaId: null,
}

export type SaveResult = { ok: true; sku: string; message: string } | { ok: false; message: string }

/** Posts the form with XMLHttpRequest, which (unlike fetch) reports upload progress. */
function postWithProgress(url: string, body: FormData, csrf: string, onProgress: (fraction: number) => void) {
  return new Promise<SaveResult>((resolve) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', url)
    xhr.setRequestHeader('X-CSRF-Token', csrf)
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.responseType = 'json'
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    }
    const failed = () =>
      resolve({
        ok: false,
        message: PRODUCT_MESSAGES.failure('no se pudo contactar al servidor, intenta de nuevo.'),
      })
    xhr.onload = () => {
      const response = xhr.response as SaveResult | null
      if (response && typeof response.message === 'string') resolve(response)
      else failed()
    }
    xhr.onerror = failed
    xhr.send(body)
  })
}

const money = (pesos: number) => formatCOP(pesosToCentavos(Number.isFinite(pesos) ? pesos : 0))
const asNumber = (text: string) => (text.trim() === '' ? 0 : Number(text))

/**
 * The create and edit product form (spec §5). Prices mirror the server live: levels 2–4 are
 * 80/70/60 % of level 1 and level 5 starts at 40 % but can be typed; the profit is level 1 minus
 * cost. Without JavaScript it posts to the page's action; with it, an upload with progress.
 */
export function ProductForm({
  mode,
  categories,
  initial,
  existingMediaCount = 0,
  onSaved,
}: {
  mode: 'create' | 'edit'
  categories: ProductFormCategory[]
  initial: ProductFormValues
  existingMediaCount?: number
  onSaved: (result: Extract<SaveResult, { ok: true }>) => void
}) {
  const csrf = useCsrfToken()
  const formRef = useRef<HTMLFormElement>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const [cost, setCost] = useState(String(initial.cost))
  const [level1, setLevel1] = useState(String(initial.level1))
  const [level5, setLevel5] = useState(String(initial.level5))
  const [files, setFiles] = useState<File[]>([])
  const [mainNew, setMainNew] = useState<number | null>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const [message, setMessage] = useState<{ text: string; at: number } | null>(null)
  const previews = useMemo(() => files.map((file) => URL.createObjectURL(file)), [files])
  useEffect(() => () => previews.forEach((url) => URL.revokeObjectURL(url)), [previews])

  const level1Pesos = asNumber(level1)
  const profit = level1Pesos - asNumber(cost)

  const fail = (text: string) => setMessage({ text, at: Date.now() })

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
    for (const file of files) {
      if (file.size > MAX_VIDEO_BYTES) return fail(UPLOAD_MESSAGES.tooLarge(file.name))
      if (file.type.startsWith('image/') && file.size > MAX_IMAGE_BYTES) {
        return fail(UPLOAD_MESSAGES.imageTooLarge(file.name))
      }
    }
    data.delete('images')
    for (const file of files) data.append('images', file, file.name)
    setMessage(null)
    setProgress(0)
    const result = await postWithProgress('/admin/productos/guardar', data, csrf, setProgress)
    setProgress(null)
    if (!result.ok) return fail(result.message)
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
      <FormMessage message={message?.text} tone="error" nonce={message?.at} />
      {mode === 'edit' ? (
        <div>
          <label htmlFor="product-sku" className={labelClass}>
            SKU
          </label>
          <input
            id="product-sku"
            name="sku"
            readOnly
            value={initial.sku}
            className={`${inputClass} bg-gray-50 font-mono`}
          />
        </div>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <label htmlFor="product-name" className={labelClass}>
            Nombre
          </label>
          <input
            id="product-name"
            name="name"
            maxLength={120}
            defaultValue={initial.name}
            className={inputClass}
          />
        </div>
        <div className="md:row-span-2">
          <label htmlFor="product-description" className={labelClass}>
            Descripción
          </label>
          <textarea
            id="product-description"
            name="description"
            rows={4}
            maxLength={5000}
            defaultValue={initial.description}
            className={inputClass}
          />
        </div>
        <fieldset>
          <legend className={labelClass}>Categorías</legend>
          {categories.length === 0 ? (
            <p className="text-sm text-gray-600">No hay categorías disponibles.</p>
          ) : (
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {categories.map((category) => (
                <label key={category.id} className="inline-flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="categoryIds"
                    value={category.id}
                    defaultChecked={initial.categoryIds.includes(category.id)}
                  />
                  {category.name}
                </label>
              ))}
            </div>
          )}
        </fieldset>
      </div>

      <fieldset className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <legend className="mb-2 text-base font-semibold">Precios</legend>
        <PesosField id="product-cost" name="cost" label="Costo" value={cost} onChange={setCost} />
        <PesosField
          id="product-level1"
          name="level1"
          label="Precio nivel 1"
          value={level1}
          onChange={(value) => {
            setLevel1(value)
            setLevel5(String(levelPesos(asNumber(value), PRICE_LEVEL_FACTORS[5])))
          }}
        />
        <PesosField
          id="product-level5"
          name="level5"
          label="Precio nivel 5"
          value={level5}
          onChange={setLevel5}
        />
        <div>
          <label htmlFor="product-discount" className={labelClass}>
            Descuento (%)
          </label>
          <input
            id="product-discount"
            name="discountPercent"
            type="number"
            min={0}
            max={100}
            step={1}
            defaultValue={initial.discountPercent}
            className={inputClass}
          />
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:col-span-2 lg:col-span-4 lg:grid-cols-4">
          {([2, 3, 4] as const).map((level) => (
            <div key={level}>
              <dt className="text-gray-600">Nivel {level}</dt>
              <dd data-testid={`level${level}`} className="font-medium">
                {money(levelPesos(level1Pesos, PRICE_LEVEL_FACTORS[level]))}
              </dd>
            </div>
          ))}
          <div>
            <dt className="text-gray-600">Ganancia</dt>
            <dd
              data-testid="profit"
              className={`font-semibold ${profit < 0 ? 'text-red-700' : 'text-green-700'}`}
            >
              {money(profit)}
            </dd>
          </div>
        </dl>
      </fieldset>

      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <label htmlFor="product-purchase-link" className={labelClass}>
            Link de compra
          </label>
          <input
            id="product-purchase-link"
            name="purchaseLink"
            type="url"
            defaultValue={initial.purchaseLink}
            placeholder="https://"
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="product-supplier" className={labelClass}>
            Información del proveedor
          </label>
          <textarea
            id="product-supplier"
            name="supplierInfo"
            rows={2}
            defaultValue={initial.supplierInfo}
            className={inputClass}
          />
        </div>
      </div>

      <fieldset className="flex flex-wrap gap-6">
        <legend className="mb-2 text-base font-semibold">Visibilidad</legend>
        <label className="inline-flex items-center gap-2">
          <input type="checkbox" name="showWholesale" defaultChecked={initial.showWholesale} />
          Mostrar a mayoristas (Mayor)
        </label>
        <label className="inline-flex items-center gap-2">
          <input type="checkbox" name="showRetail" defaultChecked={initial.showRetail} />
          Mostrar al detal (Detal)
        </label>
      </fieldset>

      <div>
        <label htmlFor="product-images" className={labelClass}>
          {mode === 'edit' ? 'Agregar imágenes' : 'Imágenes'}
        </label>
        <input
          ref={fileInput}
          id="product-images"
          name="images"
          type="file"
          accept="image/*"
          multiple
          className="block text-sm"
          onChange={(event) => {
            setFiles([...(event.target.files ?? [])])
            setMainNew(null)
          }}
        />
        {mode === 'edit' && initial.mainMediaId !== null ? (
          <input
            type="hidden"
            name="mainImage"
            value={`existente:${initial.mainMediaId}`}
            disabled={mainNew !== null}
          />
        ) : null}
        {files.length > 0 ? (
          <fieldset className="mt-3">
            <legend className="mb-2 text-sm font-medium text-gray-700">
              {mode === 'edit' && existingMediaCount > 0
                ? 'Imagen principal (opcional: elige una nueva)'
                : 'Imagen principal'}
            </legend>
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="new-images">
              {files.map((file, index) => (
                <li key={`${file.name}-${index}`} className="rounded-lg border border-brand-100 p-2">
                  <img
                    src={previews[index]}
                    alt={file.name}
                    className="aspect-square w-full rounded object-cover"
                  />
                  <label className="mt-2 flex items-center gap-2 text-xs">
                    <input
                      type="radio"
                      name="mainImage"
                      value={`nueva:${index}`}
                      checked={mainNew === index}
                      onChange={() => setMainNew(index)}
                    />
                    <span className="truncate">Imagen principal: {file.name}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        ) : null}
      </div>

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

/** A peso amount with centavos, typed by the admin (the server converts it to integer centavos). */
function PesosField(props: {
  id: string
  name: string
  label: string
  value: string
  onChange: (value: string) => void
}) {
  return (
    <div>
      <label htmlFor={props.id} className={labelClass}>
        {props.label}
      </label>
      <input
        id={props.id}
        name={props.name}
        type="number"
        min={0}
        step="0.01"
        inputMode="decimal"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        className={inputClass}
      />
    </div>
  )
}
