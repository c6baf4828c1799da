import { Link, type FetcherWithComponents } from 'react-router'
import type { MissingFile, MissingMediaSummary } from '#app/modules/catalog/missing-media.server.ts'
import { adminProductEditPath } from '#app/utils/paths.ts'
import { CsrfField } from './admin-form.tsx'
import { secondaryButtonClass } from './form-message.tsx'

/** The edit page's intent that takes a handled file off the list. */
export const DISMISS_MISSING_INTENT = 'descartar-archivo'

const noticeClass = 'rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 shadow-sm'

/**
 * The files of a product that never reached storage. The addresses are text to copy: a link or an
 * image would make the owner's browser fetch whatever they point at.
 */
export function MissingMediaNotice({
  files,
  fetcher,
}: {
  files: MissingFile[]
  /** The page's fetcher for its media actions, so the outcome shows where the others do. */
  fetcher: FetcherWithComponents<unknown>
}) {
  if (!files.length) return null
  const busy = fetcher.state !== 'idle'
  return (
    <section aria-labelledby="missing-media-title" className={noticeClass} data-testid="missing-media">
      <h2 id="missing-media-title" className="text-base font-semibold">
        {files.length === 1
          ? 'Un archivo no se pudo traer de la tienda original'
          : `${files.length} archivos no se pudieron traer de la tienda original`}
      </h2>
      <p className="mt-1">
        {files.length === 1
          ? 'No se muestra en la tienda. Consíguelo (en tus archivos o en la tienda original), súbelo en «Agregar imágenes» y guarda; luego márcalo como resuelto.'
          : 'No se muestran en la tienda. Consíguelos (en tus archivos o en la tienda original), súbelos en «Agregar imágenes» y guarda; luego márcalos como resueltos.'}
      </p>
      <ul className="mt-3 flex flex-col gap-2">
        {files.map((file) => (
          <li
            key={file.id}
            data-testid="missing-media-item"
            className="flex flex-wrap items-start justify-between gap-2 rounded-lg border border-amber-200 bg-white p-3"
          >
            <div className="min-w-0 flex-1">
              <p className="font-medium">{file.kind === 'video' ? 'Video' : 'Imagen'}</p>
              <p id={`missing-media-${file.id}`} className="break-all font-mono text-xs text-gray-700">
                {file.url}
              </p>
              {file.reason ? <p className="mt-1 text-xs text-gray-600">{`Motivo: ${file.reason}`}</p> : null}
            </div>
            <fetcher.Form method="post">
              <CsrfField />
              <input type="hidden" name="intent" value={DISMISS_MISSING_INTENT} />
              <input type="hidden" name="missingId" value={file.id} />
              <button
                type="submit"
                className={secondaryButtonClass}
                disabled={busy}
                aria-describedby={`missing-media-${file.id}`}
              >
                Ya lo resolví
              </button>
            </fetcher.Form>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The inventory notice's sentence, singular or plural in products and in files. */
export function missingMediaSentence({ products, files }: { products: number; files: number }): string {
  const who = products === 1 ? 'Un producto tiene' : `${products} productos tienen`
  const what =
    files === 1
      ? 'un archivo que no se pudo traer de la tienda original y no se muestra en la tienda: súbelo'
      : `${files} archivos que no se pudieron traer de la tienda original y no se muestran en la tienda: súbelos`
  return `${who} ${what} de nuevo desde ${products === 1 ? 'el producto' : 'cada producto'}.`
}

/** The inventory's count of products with files still to upload again, with links to the first. */
export function MissingMediaSummaryNotice({ summary }: { summary: MissingMediaSummary }) {
  if (!summary.files) return null
  const more = summary.products - summary.first.length
  return (
    <section className={noticeClass} data-testid="missing-media-summary" aria-label="Archivos por subir">
      <p>{missingMediaSentence(summary)}</p>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
        {summary.first.map((product) => (
          <li key={product.sku}>
            <Link to={adminProductEditPath(product.sku)} className="font-medium text-brand-700 underline">
              {product.name}
            </Link>{' '}
            ({product.files})
          </li>
        ))}
        {more > 0 ? <li>y {more === 1 ? 'otro más' : `${more} más`}</li> : null}
      </ul>
    </section>
  )
}
