import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { dangerButtonClass, inputClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import type { AdminBanner } from '#app/modules/settings/banners.server.ts'
import { BANNER_MESSAGES } from '#app/modules/settings/validators.ts'
import { BannerFieldsInputs, type BannerFieldValues } from './banner-fields.tsx'

/** One banner of the list: its preview, the buttons that move it, its edit form and its deletion. */
export function BannerItem({
  banner,
  index,
  count,
  busy,
  editFailed,
  nonce,
}: {
  banner: AdminBanner
  index: number
  count: number
  busy: boolean
  /** What a refused edit of this banner posted: the form opens with it. */
  editFailed: BannerFieldValues | null
  /** The last answer's time: the edit form is rebuilt from the saved banner after each one. */
  nonce: number
}) {
  return (
    <li
      data-testid="banner-item"
      data-banner-id={banner.id}
      className="flex flex-col gap-3 rounded-lg border border-brand-100 p-3 sm:flex-row"
    >
      <div className="flex flex-col gap-2 sm:w-48 sm:shrink-0">
        <BannerPreview banner={banner} />
        <p className="text-xs text-gray-600">
          {banner.kind === 'missing'
            ? 'Archivo faltante: no se muestra en la tienda; elimínalo y súbelo de nuevo.'
            : banner.kind === 'video'
              ? 'Video'
              : banner.mobile
                ? 'Imagen ancha y para celulares'
                : 'Imagen (la misma en celulares)'}
        </p>
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold" data-testid="banner-position">
            {banner.position}.
          </span>
          <span className="min-w-0 break-words font-medium">{banner.alt}</span>
          <span
            data-testid="banner-active"
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${
              banner.active ? 'bg-green-100 text-green-800' : 'bg-gray-100 text-gray-700'
            }`}
          >
            {banner.active ? 'Activo' : 'Inactivo'}
          </span>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <MoveButton
            id={banner.id}
            to="arriba"
            label="Subir"
            alt={banner.alt}
            disabled={busy || index === 0}
          />
          <MoveButton
            id={banner.id}
            to="abajo"
            label="Bajar"
            alt={banner.alt}
            disabled={busy || index === count - 1}
          />
          <AdminForm method="post" className="flex items-end gap-2">
            <input type="hidden" name="intent" value="banner-mover" />
            <input type="hidden" name="id" value={banner.id} />
            <label className="text-sm">
              <span className="sr-only">Posición de {banner.alt}</span>
              <input
                name="to"
                type="number"
                min={1}
                max={count}
                defaultValue={banner.position}
                className={`${inputClass} w-20`}
              />
            </label>
            <button type="submit" className={secondaryButtonClass} disabled={busy}>
              Mover
            </button>
          </AdminForm>
        </div>
        <details className="rounded-lg bg-brand-50/60 p-2" open={Boolean(editFailed)}>
          <summary className="cursor-pointer text-sm font-medium text-brand-700">Editar</summary>
          <AdminForm method="post" className="mt-2 flex flex-col gap-3" key={`edit-${banner.id}-${nonce}`}>
            <input type="hidden" name="intent" value="banner-editar" />
            <input type="hidden" name="id" value={banner.id} />
            <BannerFieldsInputs
              prefix={`banner-${banner.id}`}
              alt={editFailed?.alt ?? banner.alt}
              link={editFailed?.link ?? banner.link ?? ''}
              active={editFailed?.active ?? banner.active}
            />
            <div>
              <button type="submit" className={secondaryButtonClass} disabled={busy}>
                Guardar banner
              </button>
            </div>
          </AdminForm>
        </details>
        <AdminForm
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(BANNER_MESSAGES.deleteConfirm)) event.preventDefault()
          }}
        >
          <input type="hidden" name="intent" value="banner-eliminar" />
          <input type="hidden" name="id" value={banner.id} />
          <button
            type="submit"
            className={dangerButtonClass}
            disabled={busy}
            aria-label={`Eliminar ${banner.alt}`}
          >
            Eliminar
          </button>
        </AdminForm>
      </div>
    </li>
  )
}

function BannerPreview({ banner }: { banner: AdminBanner }) {
  if (banner.kind === 'missing') {
    return (
      <div className="flex aspect-[8/3] w-full items-center justify-center rounded-lg bg-red-50 text-sm font-medium text-red-800 sm:w-48">
        Archivo faltante
      </div>
    )
  }
  if (banner.kind === 'video') {
    return (
      <video
        src={banner.src}
        muted
        playsInline
        preload="metadata"
        aria-label={banner.alt}
        className="aspect-[8/3] w-full rounded-lg bg-black object-cover sm:w-48"
      />
    )
  }
  return (
    <img
      src={banner.desktop.thumb}
      srcSet={banner.desktop.srcSet}
      sizes="192px"
      alt={banner.alt}
      loading="lazy"
      className="aspect-[8/3] w-full rounded-lg object-cover sm:w-48"
    />
  )
}

function MoveButton({
  id,
  to,
  label,
  alt,
  disabled,
}: {
  id: number
  to: 'arriba' | 'abajo'
  label: string
  alt: string
  disabled: boolean
}) {
  return (
    <AdminForm method="post">
      <input type="hidden" name="intent" value="banner-mover" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="to" value={to} />
      <button
        type="submit"
        className={secondaryButtonClass}
        disabled={disabled}
        aria-label={`${label} ${alt}`}
      >
        {label}
      </button>
    </AdminForm>
  )
}
