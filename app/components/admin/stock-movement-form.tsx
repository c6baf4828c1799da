import { useEffect, useRef, useState } from 'react'
import { Form, Link, useFetcher, useLocation, useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { Field, fieldErrorId } from '#app/components/admin/field.tsx'
import {
  ActionMessage,
  inputClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { PesosField } from '#app/components/admin/price-fields.tsx'
import type { StockFormPage, StockFormProduct } from '#app/modules/inventory/stock-forms.server.ts'
import { DEFAULT_LOCATION } from '#app/modules/inventory/locations.ts'
import type { StockFieldErrors, StockFormValues } from '#app/modules/inventory/validators.ts'
import { readActionAnswer } from '#app/utils/action-answer.ts'
import { formatCOP } from '#app/utils/money.ts'
import { adminKardexPath } from '#app/utils/admin-paths.ts'

/**
 * What the entry and exit pages load (`stockFormPageFor`, app/routes/admin/stock/stock-form-answer.server.ts):
 * the picked product's average cost only for a role that may see costs (issue 27).
 */
export type StockFormLoaderData = Omit<StockFormPage, 'product'> & {
  product: (Omit<StockFormProduct, 'cost'> & { cost?: number }) | null
  /**
   * Whether the form asks for the unit cost (entry) or price (exit). Without it (Bodega) the
   * movement goes at the product's average cost, worked out by the server.
   */
  costs: boolean
}
type ShownProduct = NonNullable<StockFormLoaderData['product']>

/** What the entry and exit actions answer (`answerStockForm`, app/routes/admin/stock/stock-form-answer.server.ts). */
type StockFormActionData =
  | { ok: true; message: string; at: number }
  | { ok: false; message: string; at: number; values: StockFormValues; fieldErrors: StockFieldErrors }

const pesosText = (centavos: number) => (centavos / 100).toFixed(2).replace(/\.00$/, '')

const describedBy = (id: string, error: string | undefined) => (error ? fieldErrorId(id) : undefined)

/**
 * The product picker: a search by name or SKU answered by the page's own loader. Without
 * JavaScript it is a plain GET form whose results are links; with it, results follow the typing.
 */
function ProductPicker({
  kind,
  product,
  unknownSku,
  query,
  options,
  error,
  onSearch,
}: StockFormLoaderData & { kind: 'entry' | 'exit'; error?: string; onSearch: () => void }) {
  const location = useLocation()
  const fetcher = useFetcher<StockFormLoaderData>()
  const search = (q: string) => {
    onSearch()
    void fetcher.load(`${location.pathname}?${new URLSearchParams({ q })}`)
  }
  const [text, setText] = useState(query)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const typed = text.trim()
  // The fetcher answers the latest search; before any, the page's own (no JavaScript, or `?q=`).
  const answered = fetcher.data ?? (query ? { query, options } : null)
  const results = typed && answered ? answered.options : []
  const nothingFound =
    typed !== '' && answered?.query === typed && results.length === 0 && fetcher.state === 'idle'
  const id = `${kind}-product-search`
  const choose = (sku: string) => `${location.pathname}?${new URLSearchParams({ sku })}`

  if (product) {
    return (
      <div
        data-testid="picked-product"
        data-sku={product.sku}
        className="flex flex-col gap-2 rounded-xl border border-brand-100 bg-white p-4 shadow-sm sm:flex-row sm:items-start sm:justify-between"
      >
        <div className="flex flex-col gap-1 text-sm">
          <p className="text-xs font-medium text-gray-600">Producto</p>
          <p className="text-base font-semibold">{product.name}</p>
          <p className="font-mono text-xs">{product.sku}</p>
          <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-0.5 sm:grid-cols-4">
            <div>
              <dt className="text-gray-600">Stock</dt>
              <dd data-testid="picked-stock" className="font-semibold">
                {product.stock}
              </dd>
            </div>
            <div>
              <dt className="text-gray-600">Reservado</dt>
              <dd data-testid="picked-reserved">{product.reserved}</dd>
            </div>
            <div>
              <dt className="text-gray-600">Disponible</dt>
              <dd data-testid="picked-available" className="font-semibold">
                {product.available}
              </dd>
            </div>
            {product.cost === undefined ? null : (
              <div>
                <dt className="text-gray-600">Costo</dt>
                <dd data-testid="picked-cost">{formatCOP(product.cost)}</dd>
              </div>
            )}
          </dl>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={location.pathname} replace preventScrollReset className={secondaryButtonClass}>
            Cambiar producto
          </Link>
          <Link to={adminKardexPath(product.sku)} className={secondaryButtonClass}>
            Movimientos
          </Link>
        </div>
      </div>
    )
  }

  return (
    <div className="flex flex-col gap-2 rounded-xl border border-brand-100 bg-white p-4 shadow-sm">
      <Form
        method="get"
        role="search"
        className="flex flex-col gap-2"
        onSubmit={(event) => {
          event.preventDefault()
          search(text.trim())
        }}
      >
        <label htmlFor={id} className="text-sm font-medium text-gray-700">
          Producto (buscar por nombre o SKU)
        </label>
        <div className="flex gap-2">
          <input
            id={id}
            name="q"
            type="search"
            value={text}
            maxLength={60}
            autoComplete="off"
            enterKeyHint="search"
            placeholder="Nombre o SKU"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy(id, error)}
            className={inputClass}
            onChange={(event) => {
              const next = event.target.value
              setText(next)
              clearTimeout(timer.current)
              if (next.trim()) {
                timer.current = setTimeout(() => search(next.trim()), 250)
              }
            }}
          />
          <button type="submit" className={secondaryButtonClass}>
            Buscar
          </button>
        </div>
        {error ? (
          <p id={fieldErrorId(id)} className="text-sm text-red-700" data-testid="error-sku">
            {error}
          </p>
        ) : null}
        {unknownSku ? (
          <p className="text-sm text-red-700" role="alert">
            Producto no encontrado.
          </p>
        ) : null}
      </Form>
      {results.length ? (
        <ul
          data-testid="product-options"
          aria-label="Productos encontrados"
          className="flex flex-col divide-y divide-brand-50"
        >
          {results.map((option) => (
            <li key={option.sku}>
              <Link
                to={choose(option.sku)}
                replace
                preventScrollReset
                data-testid="product-option"
                className="flex items-center justify-between gap-3 rounded-lg px-2 py-3 hover:bg-brand-50"
              >
                <span className="flex flex-col">
                  <span className="font-medium">{option.name}</span>
                  <span className="font-mono text-xs text-gray-600">{option.sku}</span>
                </span>
                <span className="shrink-0 text-sm text-gray-700">Stock {option.stock}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : nothingFound ? (
        <p className="text-sm text-gray-600" data-testid="product-options-empty">
          No se encontraron productos.
        </p>
      ) : null}
    </div>
  )
}

/**
 * Whether the admin has searched for a product since the page (or the last save) answered: a new
 * search makes that answer's messages, and a "Producto no encontrado." of the `?sku=` the page came
 * with, old news. The next save or page answers afresh (its own `at`, a new location).
 */
function useSearchedSince(answerAt: number | undefined) {
  const { key } = useLocation()
  const [searchedOn, setSearchedOn] = useState<{ key: string; answerAt: number | undefined } | null>(null)
  return {
    searched: searchedOn !== null && searchedOn.key === key && searchedOn.answerAt === answerAt,
    onSearch: () => setSearchedOn({ key, answerAt }),
  }
}

const TITLES = { entry: 'Entrada de productos', exit: 'Salida de productos' } as const

/** The entry or exit page: its heading over the form. */
export function StockMovementPage(props: {
  kind: 'entry' | 'exit'
  loaderData: StockFormLoaderData
  actionData: StockFormActionData | undefined
}) {
  const titleId = `stock-${props.kind}-title`
  return (
    <section aria-labelledby={titleId} className="flex flex-col gap-4">
      <h1 id={titleId} className="text-2xl font-semibold">
        {TITLES[props.kind]}
      </h1>
      <StockMovementForm {...props} />
    </section>
  )
}

/**
 * Spec §5's entry (Entrada) and exit (Salida) forms: product, quantity, unit cost or price,
 * location, receipt and note. A refused post shows every message beside its field and keeps what
 * was typed; a registered one clears the fields and keeps the product.
 */
function StockMovementForm({
  kind,
  loaderData,
  actionData,
}: {
  kind: 'entry' | 'exit'
  loaderData: StockFormLoaderData
  actionData: StockFormActionData | undefined
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting'
  const { product } = loaderData
  const { searched, onSearch } = useSearchedSince(actionData?.at)
  // After a new search the last answer's messages are gone; what was typed stays.
  const shown = searched ? undefined : actionData
  const { values } = readActionAnswer(actionData)
  const { fieldErrors: errors } = readActionAnswer(shown)
  // A registered movement starts a fresh form (same product); a refused one keeps every field.
  const formKey = actionData?.ok ? `ok-${actionData.at}` : 'form'
  return (
    <div className="flex flex-col gap-4">
      <ActionMessage answer={shown} />
      <ProductPicker
        kind={kind}
        {...loaderData}
        unknownSku={searched ? null : loaderData.unknownSku}
        error={errors.sku}
        onSearch={onSearch}
      />
      <AdminForm
        method="post"
        key={formKey}
        className="flex flex-col gap-4 rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
        noValidate
      >
        <input type="hidden" name="sku" value={product?.sku ?? ''} />
        <MovementFields
          kind={kind}
          product={product}
          costs={loaderData.costs}
          values={values}
          errors={errors}
        />
        <div>
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            {kind === 'entry' ? 'Registrar entrada' : 'Registrar salida'}
          </button>
        </div>
      </AdminForm>
    </div>
  )
}

function MovementFields({
  kind,
  product,
  costs,
  values,
  errors,
}: {
  kind: 'entry' | 'exit'
  product: ShownProduct | null
  /** Whether to ask for the unit cost or price (issue 27: Bodega's go at the average cost). */
  costs: boolean
  values: StockFormValues | null
  errors: StockFieldErrors
}) {
  const costPesos = product?.cost === undefined ? '' : pesosText(product.cost)
  const [editPrice, setEditPrice] = useState(values?.editPrice ?? false)
  const [typedPrice, setTypedPrice] = useState(values?.unitPrice ?? '')
  // Without JavaScript ticking "Editar Precio" cannot unlock the field, so it starts unlocked and
  // the server uses the typed price only when the box is ticked.
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const id = (field: string) => `${kind}-${field}`
  const locationsId = `${kind}-locations`
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field id={id('quantity')} label="Cantidad" error={errors.quantity}>
        <input
          id={id('quantity')}
          name="quantity"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          defaultValue={values?.quantity ?? ''}
          aria-invalid={errors.quantity ? true : undefined}
          aria-describedby={describedBy(id('quantity'), errors.quantity)}
          className={inputClass}
        />
      </Field>
      {!costs ? (
        <p className="self-end text-sm text-gray-600" data-testid="movement-at-average-cost">
          {kind === 'entry'
            ? 'La entrada se registra al costo promedio del producto.'
            : 'La salida se registra al costo promedio del producto.'}
        </p>
      ) : kind === 'entry' ? (
        <PesosField
          id={id('unitPrice')}
          name="unitPrice"
          label="Costo unitario"
          value={typedPrice}
          onChange={setTypedPrice}
          error={errors.unitPrice}
        />
      ) : (
        <div className="flex flex-col gap-2">
          <PesosField
            id={id('unitPrice')}
            name="unitPrice"
            label="Precio unitario"
            value={editPrice ? typedPrice : costPesos}
            onChange={setTypedPrice}
            readOnly={hydrated && !editPrice}
            hint={
              editPrice ? undefined : 'El costo promedio del producto. Marca "Editar Precio" para usar otro.'
            }
            error={errors.unitPrice}
          />
          <label className="inline-flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="editPrice"
              checked={editPrice}
              onChange={(event) => {
                setEditPrice(event.target.checked)
                if (event.target.checked && typedPrice === '') setTypedPrice(costPesos)
              }}
            />
            Editar Precio
          </label>
        </div>
      )}
      <Field
        id={id('location')}
        label="Ubicación"
        error={errors.location}
        hint={
          kind === 'exit' && product?.locations.length === 0
            ? 'Este producto no tiene unidades en ninguna ubicación.'
            : undefined
        }
      >
        <input
          id={id('location')}
          name="location"
          type="text"
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          placeholder={DEFAULT_LOCATION}
          list={kind === 'exit' ? locationsId : undefined}
          defaultValue={values?.location ?? (kind === 'entry' ? DEFAULT_LOCATION : '')}
          aria-invalid={errors.location ? true : undefined}
          aria-describedby={describedBy(id('location'), errors.location)}
          className={`${inputClass} font-mono`}
        />
        {kind === 'exit' ? (
          <datalist id={locationsId} data-testid="location-suggestions">
            {product?.locations.map((location) => (
              <option key={location.code} value={location.code} label={`${location.stock} unidades`} />
            ))}
          </datalist>
        ) : null}
      </Field>
      {kind === 'exit' && product && product.locations.length > 0 ? (
        <div className="text-sm sm:col-span-2">
          <p className="text-gray-600">Ubicaciones con stock</p>
          <ul data-testid="exit-locations" className="flex flex-wrap gap-2 pt-1">
            {product.locations.map((location) => (
              <li key={location.code} className="rounded-full bg-brand-50 px-3 py-1 font-mono text-xs">
                {location.code}: {location.stock}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Field id={id('receipt')} label="Recibo" error={errors.receipt}>
        <input
          id={id('receipt')}
          name="receipt"
          type="text"
          maxLength={200}
          defaultValue={values?.receipt ?? ''}
          aria-invalid={errors.receipt ? true : undefined}
          aria-describedby={describedBy(id('receipt'), errors.receipt)}
          className={inputClass}
        />
      </Field>
      <Field id={id('note')} label="Nota" error={errors.note} className="sm:col-span-2">
        <textarea
          id={id('note')}
          name="note"
          rows={2}
          maxLength={1000}
          defaultValue={values?.note ?? ''}
          aria-invalid={errors.note ? true : undefined}
          aria-describedby={describedBy(id('note'), errors.note)}
          className={inputClass}
        />
      </Field>
    </div>
  )
}
