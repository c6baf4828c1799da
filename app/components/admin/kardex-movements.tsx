import type { ReactNode } from 'react'
import type { ShownKardexRow as KardexRow } from '#app/modules/inventory/kardex.server.ts'
import { formatCOP } from '#app/utils/money.ts'

const TYPE_CLASSES: Record<string, string> = {
  in: 'bg-green-50 text-green-800',
  out: 'bg-amber-50 text-amber-800',
  adjust: 'bg-sky-50 text-sky-800',
}

function TypeBadge({ row }: { row: KardexRow }) {
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${TYPE_CLASSES[row.type] ?? ''}`}
    >
      {row.typeLabel}
    </span>
  )
}

/** "02/02/2026, 06:00 p. m." as its day over its time, so the date column stays narrow. */
function StackedDate({ row }: { row: KardexRow }) {
  const [day, time] = row.when.split(', ')
  return (
    <time dateTime={row.at} className="flex flex-col whitespace-nowrap">
      <span>{day}</span>
      {time ? <span className="text-gray-600">{time}</span> : null}
    </time>
  )
}

/** An e-mail that may wrap before its "@" rather than anywhere. */
function Email({ address }: { address: string }) {
  const at = address.indexOf('@')
  if (at <= 0) return <>{address}</>
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  )
}

/** A figure of cost, or a dash where the loader left it out. */
const pesos = (centavos: number | undefined) => (centavos === undefined ? '—' : formatCOP(centavos))

/**
 * A product's ledger rows: a table wide enough to read on a desktop (receipt and note share a
 * column, long texts wrap, so all of it fits beside the menu without sideways scrolling), and one
 * card per movement below that, with every field labelled, as the order list does on a phone.
 * Without `costs` (issue 27: the loader sent no unit prices, totals or average costs) those columns
 * are not there.
 */
export function KardexMovements({ sku, rows, costs }: { sku: string; rows: KardexRow[]; costs: boolean }) {
  return (
    <>
      <ul className="grid gap-3 lg:grid-cols-2 xl:hidden" data-testid="kardex-cards">
        {rows.map((row) => (
          <li key={row.id} data-testid="kardex-card" data-type={row.type}>
            <KardexCard row={row} costs={costs} />
          </li>
        ))}
      </ul>
      {/* A safety net only: at these widths the table fits; the keyboard can scroll it if not. */}
      <div
        role="region"
        aria-label="Tabla de movimientos"
        tabIndex={0}
        className="hidden overflow-x-auto rounded-xl border border-brand-100 bg-white shadow-sm focus:ring-2 focus:ring-brand-200 focus:outline-none xl:block"
      >
        <table data-testid="kardex-table" className="w-full text-xs">
          <caption className="sr-only">Movimientos de {sku}</caption>
          <thead className="bg-brand-50 text-left text-gray-700">
            <tr>
              <Th>Fecha</Th>
              <Th>Tipo</Th>
              <Th numeric>Cantidad</Th>
              {costs ? (
                <>
                  <Th numeric>Precio unitario</Th>
                  <Th numeric>Total</Th>
                </>
              ) : null}
              <Th>Recibo y nota</Th>
              <Th>Ubicación</Th>
              <Th numeric>Stock después</Th>
              {costs ? <Th numeric>Costo promedio después</Th> : null}
              <Th>Usuario</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-brand-50 align-top">
            {rows.map((row) => (
              <tr key={row.id} data-testid="kardex-row" data-type={row.type}>
                <td className="py-2 pr-1.5 pl-3">
                  <StackedDate row={row} />
                </td>
                <td className="px-1.5 py-2">
                  <TypeBadge row={row} />
                </td>
                <Money>{row.quantity}</Money>
                {costs ? (
                  <>
                    <Money>{pesos(row.unitPrice)}</Money>
                    <Money>{pesos(row.total)}</Money>
                  </>
                ) : null}
                <td className="min-w-28 px-1.5 py-2 [overflow-wrap:anywhere]">
                  {row.receipt ? <span className="block font-medium">{row.receipt}</span> : null}
                  {row.note ? <span className="block text-gray-700">{row.note}</span> : null}
                </td>
                {/* Two lines at most: "P1-C1-A1-E1-" over "X1-Y1-Z1". */}
                <td className="min-w-[12ch] px-1.5 py-2 font-mono">{row.location}</td>
                <Money>{row.stockAfter}</Money>
                {costs ? <Money>{pesos(row.averageCostAfter)}</Money> : null}
                <td className="py-2 pr-3 pl-1.5 break-words">
                  <Email address={row.by} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

function Th({ numeric, children }: { numeric?: boolean; children: ReactNode }) {
  return (
    <th
      scope="col"
      className={`px-1.5 py-2 align-bottom font-medium first:pl-3 last:pr-3${numeric ? ' text-right' : ''}`}
    >
      {children}
    </th>
  )
}

function Money({ children }: { children: ReactNode }) {
  return <td className="px-1.5 py-2 text-right whitespace-nowrap tabular-nums">{children}</td>
}

type CardField = { label: string; value: ReactNode; wide?: boolean; className?: string }

/** One movement on a phone: its date and type on top, then every other field with its name. */
function KardexCard({ row, costs }: { row: KardexRow; costs: boolean }) {
  const fields: CardField[] = [
    { label: 'Cantidad', value: row.quantity, className: 'font-semibold tabular-nums' },
    ...(costs
      ? [
          { label: 'Precio unitario', value: pesos(row.unitPrice), className: 'tabular-nums' },
          { label: 'Total', value: pesos(row.total), className: 'tabular-nums' },
        ]
      : []),
    { label: 'Ubicación', value: row.location, className: 'font-mono text-xs [overflow-wrap:anywhere]' },
    { label: 'Stock después', value: row.stockAfter, className: 'tabular-nums' },
    ...(costs
      ? [{ label: 'Costo promedio después', value: pesos(row.averageCostAfter), className: 'tabular-nums' }]
      : []),
    { label: 'Recibo', value: row.receipt || '—' },
    { label: 'Usuario', value: <Email address={row.by} /> },
    { label: 'Nota', value: row.note || '—', wide: true },
  ]
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-xl border border-brand-100 bg-white p-3 text-sm shadow-sm">
      <div className="col-span-2 flex flex-wrap items-start justify-between gap-2">
        <div>
          <dt className="sr-only">Fecha</dt>
          <dd className="font-medium">
            <time dateTime={row.at} className="whitespace-nowrap">
              {row.when}
            </time>
          </dd>
        </div>
        <div>
          <dt className="sr-only">Tipo</dt>
          <dd>
            <TypeBadge row={row} />
          </dd>
        </div>
      </div>
      {fields.map(({ label, value, wide, className }) => (
        <div key={label} className={wide ? 'col-span-2' : 'min-w-0'}>
          <dt className="text-xs text-gray-600">{label}</dt>
          <dd className={className ?? '[overflow-wrap:anywhere]'}>{value}</dd>
        </div>
      ))}
    </dl>
  )
}
