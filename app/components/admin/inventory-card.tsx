import { Link } from 'react-router'
import { dangerButtonClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import { ProductImage } from '#app/components/product-image.tsx'
import type { ShownInventoryCard } from '#app/modules/catalog/inventory-grid.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { adminProductEditPath } from '#app/utils/paths.ts'
import { adminKardexPath, adminStockEntryPath, adminStockExitPath } from '#app/utils/admin-paths.ts'

/** A card as the loader sends it: without the cost or the price when the role may not see them. */
export type InventoryCardData = ShownInventoryCard

/** Spec §2: each visibility flag shows as Activo or Inactivo. */
function StatusRow({ label, active, testId }: { label: string; active: boolean; testId: string }) {
  return (
    <>
      <dt className="text-gray-600">{label}</dt>
      <dd data-testid={testId} className={active ? 'text-green-700' : 'text-gray-500'}>
        {active ? 'Activo' : 'Inactivo'}
      </dd>
    </>
  )
}

/**
 * One product of the admin inventory grid (spec §2). The price and the cost show when the loader
 * sent them (issue 27); the buttons lead only where the role may go.
 */
export function InventoryCard({
  product,
  can,
  deleting,
  onDelete,
}: {
  product: InventoryCardData
  /** `catalog`: edit and delete; `stock`: entries and exits. */
  can: { catalog: boolean; stock: boolean }
  deleting: boolean
  onDelete: () => void
}) {
  const links = [
    ...(can.stock
      ? [
          { label: 'Entrada', aria: 'Entrada de', to: adminStockEntryPath, testId: 'inventory-entry' },
          { label: 'Salida', aria: 'Salida de', to: adminStockExitPath, testId: 'inventory-exit' },
        ]
      : []),
    { label: 'Movimientos', aria: 'Movimientos de', to: adminKardexPath, testId: 'inventory-kardex' },
  ]
  return (
    <li
      data-testid="inventory-card"
      data-sku={product.sku}
      // On a phone the image sits beside the details, so a long inventory stays quick to scan.
      className="flex overflow-hidden rounded-xl border border-brand-100 bg-white shadow-sm sm:flex-col"
    >
      <ProductImage
        image={product.image}
        sizes="(min-width: 1024px) 240px, (min-width: 640px) 45vw, 112px"
        className="aspect-square w-28 shrink-0 self-start object-cover sm:w-full"
      />
      <div className="flex flex-1 flex-col gap-2 p-3 text-sm">
        <h2 className="font-semibold" data-testid="inventory-name">
          {product.name}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          {/* A SKU is read and typed whole, never broken: it takes its own line under its label, where
              the narrowest card still has room for it. */}
          <dt className="col-span-2 text-gray-600">SKU</dt>
          <dd className="font-mono text-xs whitespace-nowrap col-span-2" data-testid="inventory-sku">
            {product.sku}
          </dd>
          <dt className="text-gray-600">Stock</dt>
          <dd
            data-testid="inventory-stock"
            className={product.stock === 0 ? 'font-semibold text-red-600' : 'font-semibold'}
          >
            {product.stock}
          </dd>
          <dt className="text-gray-600">Reservado</dt>
          <dd data-testid="inventory-reserved">{product.reserved}</dd>
          <dt className="text-gray-600">Disponible</dt>
          <dd
            data-testid="inventory-available"
            className={product.available === 0 ? 'font-semibold text-red-600' : 'font-semibold'}
          >
            {product.available}
          </dd>
          {product.priceLevel1 === undefined ? null : (
            <>
              <dt className="text-gray-600">Precio</dt>
              <dd data-testid="inventory-price">
                {product.priceLevel1 > 0 ? formatCOP(product.priceLevel1) : 'N/A'}
              </dd>
            </>
          )}
          {product.cost === undefined ? null : (
            <>
              <dt className="text-gray-600">Costo</dt>
              <dd data-testid="inventory-cost">{product.cost > 0 ? formatCOP(product.cost) : 'N/A'}</dd>
            </>
          )}
          {/* Codes are as long as a SKU: each takes a whole line under the label, never broken. */}
          <dt className="col-span-2 text-gray-600">Ubicaciones</dt>
          <dd data-testid="inventory-locations" className="col-span-2">
            {product.locations.length === 0 ? (
              <span className="text-gray-500">—</span>
            ) : (
              <ul>
                {product.locations.map((location) => (
                  <li key={location.code} className="font-mono text-xs whitespace-nowrap">
                    {location.code}: {location.stock}
                  </li>
                ))}
              </ul>
            )}
          </dd>
          <StatusRow label="Mayor" active={product.showWholesale} testId="inventory-wholesale" />
          <StatusRow label="Detal" active={product.showRetail} testId="inventory-retail" />
        </dl>
        <div className="mt-auto flex flex-wrap gap-2 pt-2">
          {can.catalog ? (
            <>
              <Link
                to={adminProductEditPath(product.sku)}
                className={secondaryButtonClass}
                aria-label={`Editar ${product.name}`}
              >
                Editar
              </Link>
              <button
                type="button"
                className={dangerButtonClass}
                disabled={deleting}
                onClick={onDelete}
                aria-label={`Eliminar ${product.name}`}
              >
                Eliminar
              </button>
            </>
          ) : null}
          {links.map((link) => (
            <Link
              key={link.testId}
              to={link.to(product.sku)}
              className={secondaryButtonClass}
              aria-label={`${link.aria} ${product.name}`}
              data-testid={link.testId}
            >
              {link.label}
            </Link>
          ))}
        </div>
      </div>
    </li>
  )
}
