import { useEffect, useRef, useState } from 'react'
import { useFetcher, useLocation, useNavigate, useNavigation } from 'react-router'
import { useCsrfToken } from '#app/components/admin/admin-form.tsx'
import { ActionMessage, inputClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import { InventoryCard, type InventoryCardData } from '#app/components/admin/inventory-card.tsx'
import { MissingMediaSummaryNotice } from '#app/components/admin/missing-media-notice.tsx'
import { deleteProduct } from '#app/modules/catalog/admin-products.server.ts'
import { adminCan, requirePermission, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { listInventory, shownInventoryCard } from '#app/modules/catalog/inventory-grid.server.ts'
import { summarizeMissingMedia } from '#app/modules/catalog/missing-media.server.ts'
import {
  FILTER_PARAMS,
  filtersFromParams,
  INVENTORY_STORAGE_KEY,
  InventoryFiltersSchema,
  paramsFromFilters,
  PRODUCT_MESSAGES,
  type InventoryFilters,
} from '#app/modules/catalog/validators.ts'
import type { Route } from './+types/inventory'
import { successAnswer } from '#app/utils/action-answer.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { pageOffset } from '#app/modules/catalog/paging.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { ADMIN_PRODUCTS_PATH } from '#app/utils/paths.ts'

export const meta: Route.MetaFunction = () => [{ title: 'Inventario | Administración' }]

export async function loader({ url, context }: Route.LoaderArgs) {
  const params = url.searchParams
  const filters = filtersFromParams(params)
  const offset = pageOffset(params.get('desde'))
  const { reads } = servicesOf(context)
  const admin = signedInAdminOf(context)
  const { items, hasMore } = await listInventory(reads, filters, offset)
  // Everyone sees the inventory; its cost and price only who may (issue 27), on the server.
  const figures = { costs: adminCan(admin, 'costs'), money: adminCan(admin, 'money') }
  // Only the first page shows the notice: "Cargar más" asks this loader for the next ones.
  const missingMedia = offset === 0 ? await summarizeMissingMedia(reads.db) : null
  return {
    filters,
    offset,
    items: items.map((card) => shownInventoryCard(card, figures)),
    hasMore,
    missingMedia,
    // The card's buttons lead only where the role may go.
    can: { catalog: adminCan(admin, 'catalog'), stock: adminCan(admin, 'stock') },
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await requireFormData(request)
  const sku = form.get('sku')
  const target = form.get('intent') === 'eliminar' && typeof sku === 'string' && sku !== '' ? sku : null
  try {
    // The inventory opens for the whole team; deleting a product is the catalog's.
    requirePermission(signedInAdminOf(context), 'catalog')
    if (!target) throw new Refusal(PRODUCT_MESSAGES.deleteFailed, { status: 400 })
    const { database, media } = servicesOf(context)
    await deleteProduct(database.db, media.storage, target)
    return successAnswer(PRODUCT_MESSAGES.deleted, { sku: target })
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: PRODUCT_MESSAGES.deleteFailed }, { sku: target })
  }
}

function readStoredFilters(): InventoryFilters | null {
  try {
    const raw = window.localStorage.getItem(INVENTORY_STORAGE_KEY)
    if (!raw) return null
    const parsed = InventoryFiltersSchema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

function storeFilters(filters: InventoryFilters) {
  try {
    window.localStorage.setItem(INVENTORY_STORAGE_KEY, JSON.stringify(filters))
  } catch {
    // Private mode or full storage: the filters just do not persist.
  }
}

const CHECKBOXES: { key: keyof typeof FILTER_PARAMS; label: string }[] = [
  { key: 'wholesale', label: 'Mayoristas' },
  { key: 'retail', label: 'Detal' },
  { key: 'noStock', label: 'Mostrar productos sin stock' },
  { key: 'inactive', label: 'Mostrar productos sin estados activos' },
]

export default function Inventory({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate()
  const navigation = useNavigation()
  const location = useLocation()
  const csrf = useCsrfToken()
  const [filters, setFilters] = useState(loaderData.filters)
  const [extra, setExtra] = useState<{ items: InventoryCardData[]; hasMore: boolean }[]>([])
  const more = useFetcher<typeof loader>()
  const remover = useFetcher<typeof action>()
  const searchTimer = useRef<ReturnType<typeof setTimeout>>(undefined)

  // Filters from the address win; a bare /admin/productos (first visit, reload, the menu link)
  // restores the ones saved last time.
  useEffect(() => {
    const params = new URLSearchParams(location.search)
    const explicit = ['q', ...Object.values(FILTER_PARAMS)].some((name) => params.has(name))
    const stored = explicit ? null : readStoredFilters()
    if (stored) {
      setFilters(stored)
      const target = paramsFromFilters(stored).toString()
      if (target !== paramsFromFilters(filtersFromParams(params)).toString()) {
        void navigate(`?${target}`, { replace: true, preventScrollReset: true })
      }
    } else if (!explicit) {
      setFilters(filtersFromParams(params))
    }
  }, [location.search, navigate])

  // A new first page (other filters, or after a delete) drops the pages loaded with "Cargar más".
  useEffect(() => setExtra([]), [loaderData])

  useEffect(() => {
    if (more.data) setExtra((pages) => [...pages, { items: more.data!.items, hasMore: more.data!.hasMore }])
  }, [more.data])

  function apply(next: InventoryFilters, debounce = false) {
    setFilters(next)
    storeFilters(next)
    clearTimeout(searchTimer.current)
    const go = () => void navigate(`?${paramsFromFilters(next)}`, { replace: true, preventScrollReset: true })
    if (debounce) searchTimer.current = setTimeout(go, 300)
    else go()
  }

  const deletedSku = remover.data?.ok ? remover.data.sku : null
  const items = [...loaderData.items, ...extra.flatMap((page) => page.items)].filter(
    (item) => item.sku !== deletedSku,
  )
  const hasMore = extra.length ? extra.at(-1)!.hasMore : loaderData.hasMore
  // The server renders the loader's cards (so the grid works without JavaScript); the loading text
  // shows only while other filters, restored from localStorage or just chosen, are being fetched.
  const loading = navigation.state === 'loading' && navigation.location.pathname === location.pathname

  return (
    <section aria-labelledby="inventory-title" className="flex flex-col gap-4">
      <h1 id="inventory-title" className="text-2xl font-semibold">
        Inventario
      </h1>
      <ActionMessage answer={remover.data} />
      {loaderData.missingMedia ? <MissingMediaSummaryNotice summary={loaderData.missingMedia} /> : null}
      <div className="flex flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm">
        <div>
          <label htmlFor="inventory-search" className="mb-1 block text-sm font-medium text-gray-700">
            Buscar por nombre o SKU
          </label>
          <input
            id="inventory-search"
            type="search"
            value={filters.q}
            maxLength={60}
            placeholder="Nombre o SKU"
            autoComplete="off"
            className={inputClass}
            onChange={(event) => apply({ ...filters, q: event.target.value }, true)}
          />
        </div>
        <fieldset className="flex flex-wrap gap-x-6 gap-y-2">
          <legend className="sr-only">Filtros</legend>
          {CHECKBOXES.map(({ key, label }) => (
            <label key={key} className="inline-flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name={FILTER_PARAMS[key]}
                checked={filters[key]}
                onChange={(event) => apply({ ...filters, [key]: event.target.checked })}
              />
              {label}
            </label>
          ))}
        </fieldset>
      </div>

      {loading ? (
        <p data-testid="inventory-loading" role="status" className="p-6 text-center text-gray-600">
          {PRODUCT_MESSAGES.loading}
        </p>
      ) : items.length === 0 ? (
        <p
          data-testid="inventory-empty"
          className="rounded-xl border border-brand-100 bg-white p-6 text-center"
        >
          {PRODUCT_MESSAGES.empty}
        </p>
      ) : (
        <>
          <ul
            className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
            data-testid="inventory-grid"
          >
            {items.map((product) => (
              <InventoryCard
                key={product.sku}
                product={product}
                can={loaderData.can}
                deleting={remover.state !== 'idle' && remover.formData?.get('sku') === product.sku}
                onDelete={() => {
                  if (!window.confirm(PRODUCT_MESSAGES.deleteConfirm)) return
                  remover.submit(
                    { intent: 'eliminar', sku: product.sku, csrf },
                    { method: 'post', action: `${ADMIN_PRODUCTS_PATH}?index` },
                  )
                }}
              />
            ))}
          </ul>
          {hasMore ? (
            <div className="flex justify-center">
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={more.state !== 'idle'}
                onClick={() => {
                  const params = paramsFromFilters(filters)
                  params.set(
                    'desde',
                    String(
                      loaderData.offset +
                        loaderData.items.length +
                        extra.reduce((n, p) => n + p.items.length, 0),
                    ),
                  )
                  more.load(`${ADMIN_PRODUCTS_PATH}?index&${params}`)
                }}
              >
                {more.state !== 'idle' ? PRODUCT_MESSAGES.loading : 'Cargar más'}
              </button>
            </div>
          ) : null}
        </>
      )}
    </section>
  )
}
