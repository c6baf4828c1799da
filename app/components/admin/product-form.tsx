import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { CsrfField, useCsrfToken } from '#app/components/admin/admin-form.tsx'
import {
  FormMessage,
  inputClass,
  labelClass,
  primaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { levelPesos, PRICE_LEVEL_FACTORS } from '#app/modules/catalog/pricing.ts'
import {
  FORBIDDEN_POST_MESSAGE,
  loginPath,
  NOTICE_PARAM,
  NOTICES,
  RETURN_PARAM,
  safeReturnTo,
  SIGN_IN_AGAIN_LABEL,
  UNREADABLE_FORM_MESSAGE,
} from '#app/modules/auth/messages.ts'
import { CATEGORY_MESSAGES, PRODUCT_MESSAGES } from '#app/modules/catalog/validators.ts'
import {
  MAX_FILES_PER_POST,
  MAX_IMAGE_BYTES,
  MAX_VIDEO_BYTES,
  UPLOAD_MESSAGES,
} from '#app/modules/media/validators.ts'
import { formatCOP, pesosToCentavos } from '#app/utils/money.ts'
import { ADMIN_PRODUCT_SAVE_PATH, LOGIN_PATH } from '#app/utils/paths.ts'

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

export type SaveResult =
  { ok: true; sku: string; message: string } | { ok: false; message: string; signIn?: string }

/** What a file chooser offers: images and the three video formats the server accepts. */
export const MEDIA_ACCEPT = 'image/*,video/mp4,video/webm,video/ogg'

/**
 * The outcome of a save as the server answered it: its own JSON `{ ok, message }` when there is
 * one (refusals included); otherwise a Spanish text for the status (a 413 from the body-size limit,
 * a proxy's error page, a sign-in page reached through a redirect).
 */
export function saveResultFrom(status: number, body: unknown, responseUrl = ''): SaveResult {
  const answer = body as Partial<SaveResult> | null
  if (answer && typeof answer === 'object' && typeof answer.message === 'string') {
    if (answer.ok === true && typeof answer.sku === 'string') {
      return { ok: true, sku: answer.sku, message: answer.message }
    }
    const signIn = (answer as { signIn?: unknown }).signIn
    return {
      ok: false,
      message: answer.message,
      ...(typeof signIn === 'string' && signIn.startsWith(LOGIN_PATH) ? { signIn } : {}),
    }
  }
  if (status === 401 || /\/login-admin(?:[?#]|$)/.test(responseUrl)) {
    return {
      ok: false,
      message: NOTICES['sesion-expirada'],
      signIn: loginPath({ notice: 'sesion-expirada' }),
    }
  }
  if (status === 403) return { ok: false, message: FORBIDDEN_POST_MESSAGE }
  if (status === 400) return { ok: false, message: UNREADABLE_FORM_MESSAGE }
  if (status === 413) return { ok: false, message: PRODUCT_MESSAGES.requestTooLarge }
  if (status === 0) return { ok: false, message: PRODUCT_MESSAGES.unreachable }
  return { ok: false, message: PRODUCT_MESSAGES.unexpected }
}

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
    xhr.onload = () => resolve(saveResultFrom(xhr.status, xhr.response, xhr.responseURL))
    // The connection failed, or was closed by the server after a 413 before the answer was read.
    xhr.onerror = () => resolve(saveResultFrom(0, null))
    xhr.send(body)
  })
}

/** Where a sign-in link should bring the admin back to: this page. */
function withReturn(signIn: string): string {
  const url = new URL(signIn, window.location.origin)
  if (!url.searchParams.has(RETURN_PARAM) && url.searchParams.get(NOTICE_PARAM) !== 'no-autorizado') {
    const here = safeReturnTo(window.location.pathname)
    if (here !== '/admin') url.searchParams.set(RETURN_PARAM, here)
  }
  return url.pathname + url.search
}

const isVideo = (file: File) => file.type.startsWith('video/')

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
  const [message, setMessage] = useState<{ text: string; at: number; signIn?: string } | null>(null)
  const previews = useMemo(() => files.map((file) => URL.createObjectURL(file)), [files])
  useEffect(() => () => previews.forEach((url) => URL.revokeObjectURL(url)), [previews])

  const level1Pesos = asNumber(level1)
  const profit = level1Pesos - asNumber(cost)

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
            <p className="text-sm text-gray-600" data-testid="categories-empty">
              {CATEGORY_MESSAGES.empty}
            </p>
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
          accept={MEDIA_ACCEPT}
          aria-describedby="product-images-hint"
          multiple
          className="block text-sm"
          onChange={(event) => {
            setFiles([...(event.target.files ?? [])])
            setMainNew(null)
          }}
        />
        <p id="product-images-hint" className="mt-1 text-xs text-gray-600">
          Imágenes de hasta 10 MB o videos MP4, WebM u Ogg de hasta 50 MB.
        </p>
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
                  {isVideo(file) ? (
                    <video
                      src={previews[index]}
                      aria-label={file.name}
                      muted
                      playsInline
                      preload="metadata"
                      data-testid="new-video-preview"
                      className="aspect-square w-full rounded object-cover"
                    />
                  ) : (
                    <img
                      src={previews[index]}
                      alt={file.name}
                      className="aspect-square w-full rounded object-cover"
                    />
                  )}
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
