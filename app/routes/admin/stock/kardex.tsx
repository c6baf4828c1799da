import { data, Form, Link } from 'react-router'
import { Field } from '#app/components/admin/field.tsx'
import {
  FormMessage,
  inputClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { KardexMovements } from '#app/components/admin/kardex-movements.tsx'
import { adminCan, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { kardexWithoutCosts, readKardex, type ShownKardex } from '#app/modules/inventory/kardex.server.ts'
import {
  kardexFiltersFrom,
  kardexRangeMessage,
  STOCK_FORM_MESSAGES,
} from '#app/modules/inventory/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { ADMIN_PRODUCTS_PATH, adminProductEditPath } from '#app/utils/paths.ts'
import {
  adminKardexCsvPath,
  adminKardexPath,
  adminStockEntryPath,
  adminStockExitPath,
} from '#app/utils/admin-paths.ts'
import type { Route } from './+types/kardex'

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `Movimientos de ${params.sku} | Administración` },
]

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const filters = kardexFiltersFrom(url.searchParams)
  const admin = signedInAdminOf(context)
  // The buttons lead only where the role may go.
  const can = { catalog: adminCan(admin, 'catalog'), stock: adminCan(admin, 'stock') }
  const found = await readKardex(servicesOf(context).database.db, params.sku, filters)
  if (!found) return data({ kardex: null, filters, can }, { status: 404 })
  // Unit prices, totals and average costs only for whom may see costs (issue 27), on the server.
  const kardex: ShownKardex = adminCan(admin, 'costs') ? found : kardexWithoutCosts(found)
  return { kardex, filters, can }
}

/** The day range as the address carries it (kept by the pages and the CSV link). */
function rangeParams(filters: { from?: string; to?: string }, page?: number) {
  const params = new URLSearchParams()
  if (filters.from) params.set('desde', filters.from)
  if (filters.to) params.set('hasta', filters.to)
  if (page && page > 1) params.set('pagina', String(page))
  return params
}

export default function Kardex({ loaderData, params }: Route.ComponentProps) {
  const { kardex, filters, can } = loaderData
  if (!kardex) {
    return (
      <section className="flex flex-col items-start gap-4">
        <FormMessage message={STOCK_FORM_MESSAGES.productNotFound} tone="error" />
        <Link to={ADMIN_PRODUCTS_PATH} className="text-brand-700 underline">
          Volver al inventario
        </Link>
      </section>
    )
  }
  const { product, rows, hasMore } = kardex
  const costs = product.cost !== undefined
  const rangeMessage = kardexRangeMessage(filters)
  const range = rangeParams(filters)
  return (
    <section aria-labelledby="kardex-title" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h1 id="kardex-title" className="text-2xl font-semibold">
          Movimientos
        </h1>
        <p className="font-medium">{product.name}</p>
        <p className="font-mono text-xs text-gray-700">{product.sku}</p>
      </div>
      <dl
        data-testid="kardex-summary"
        className={`grid grid-cols-2 gap-3 rounded-xl border border-brand-100 bg-white p-4 text-sm shadow-sm ${costs ? 'sm:grid-cols-4' : 'sm:grid-cols-3'}`}
      >
        <div>
          <dt className="text-gray-600">Stock</dt>
          <dd data-testid="kardex-stock" className="text-lg font-semibold">
            {product.stock}
          </dd>
        </div>
        <div>
          <dt className="text-gray-600">Reservado</dt>
          <dd className="text-lg">{product.reserved}</dd>
        </div>
        <div>
          <dt className="text-gray-600">Disponible</dt>
          <dd className="text-lg font-semibold">{product.available}</dd>
        </div>
        {product.cost === undefined ? null : (
          <div>
            <dt className="text-gray-600">Costo promedio</dt>
            <dd data-testid="kardex-cost" className="text-lg">
              {formatCOP(product.cost)}
            </dd>
          </div>
        )}
      </dl>
      {can.stock || can.catalog ? (
        <div className="flex flex-wrap gap-2">
          {can.stock ? (
            <>
              <Link to={adminStockEntryPath(product.sku)} className={secondaryButtonClass}>
                Entrada
              </Link>
              <Link to={adminStockExitPath(product.sku)} className={secondaryButtonClass}>
                Salida
              </Link>
            </>
          ) : null}
          {can.catalog ? (
            <Link to={adminProductEditPath(product.sku)} className={secondaryButtonClass}>
              Editar producto
            </Link>
          ) : null}
        </div>
      ) : null}

      <Form
        method="get"
        key={`${filters.from ?? ''}|${filters.to ?? ''}`}
        className="flex flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm sm:flex-row sm:flex-wrap sm:items-end"
        aria-label="Filtrar por fecha"
      >
        <Field id="kardex-from" label="Desde" className="sm:w-48">
          <input
            id="kardex-from"
            name="desde"
            type="date"
            defaultValue={filters.from ?? ''}
            className={inputClass}
          />
        </Field>
        <Field id="kardex-to" label="Hasta" className="sm:w-48">
          <input
            id="kardex-to"
            name="hasta"
            type="date"
            defaultValue={filters.to ?? ''}
            className={inputClass}
          />
        </Field>
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" className={primaryButtonClass}>
            Filtrar
          </button>
          {filters.from || filters.to ? (
            <Link to={adminKardexPath(params.sku)} className={secondaryButtonClass}>
              Quitar filtro
            </Link>
          ) : null}
          <a
            href={adminKardexCsvPath(product.sku, range)}
            download
            className={secondaryButtonClass}
            data-testid="kardex-csv"
          >
            Descargar CSV
          </a>
        </div>
      </Form>

      {rangeMessage ? (
        <FormMessage message={rangeMessage} tone="error" />
      ) : rows.length === 0 ? (
        <p data-testid="kardex-empty" className="rounded-xl border border-brand-100 bg-white p-6 text-center">
          {filters.from || filters.to
            ? 'No hay movimientos en esas fechas.'
            : 'Este producto aún no tiene movimientos.'}
        </p>
      ) : (
        <KardexMovements sku={product.sku} rows={rows} costs={costs} />
      )}
      {filters.page > 1 || hasMore ? (
        <nav aria-label="Páginas" className="flex items-center justify-between gap-2">
          {filters.page > 1 ? (
            <Link
              to={adminKardexPath(product.sku, rangeParams(filters, filters.page - 1))}
              className={secondaryButtonClass}
            >
              Anterior
            </Link>
          ) : (
            <span />
          )}
          <span className="text-sm text-gray-600">Página {filters.page}</span>
          {hasMore ? (
            <Link
              to={adminKardexPath(product.sku, rangeParams(filters, filters.page + 1))}
              className={secondaryButtonClass}
            >
              Siguiente
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </section>
  )
}
