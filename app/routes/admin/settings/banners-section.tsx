import { useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { Field } from '#app/components/admin/field.tsx'
import { primaryButtonClass } from '#app/components/admin/form-message.tsx'
import type { AdminBanner } from '#app/modules/settings/banners.server.ts'
import { BannerFieldsInputs } from './banner-fields.tsx'
import { BannerItem } from './banner-item.tsx'
import { cardClass } from './card.ts'
import type { Route } from '../+types/settings'

type ActionData = Route.ComponentProps['actionData']

/** The home page's banners in their order, and the form that adds one. */
export function BannersSection({ banners, actionData }: { banners: AdminBanner[]; actionData: ActionData }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting'
  const failed = actionData && !actionData.ok ? actionData : null
  const createFailed = failed?.intent === 'banner-crear' ? failed.bannerValues : null
  return (
    <section aria-labelledby="banners-title" className={cardClass}>
      <div>
        <h2 id="banners-title" className="text-lg font-semibold">
          Banners de la página de inicio
        </h2>
        <p className="text-sm text-gray-600">
          Se muestran en este orden. Debajo de 700 px de ancho se usa la imagen para celulares, si la hay.
        </p>
      </div>
      {banners.length === 0 ? (
        <p className="text-sm text-gray-600">No hay banners.</p>
      ) : (
        <ol className="flex flex-col gap-3" data-testid="banner-list">
          {banners.map((banner, index) => (
            <BannerItem
              key={banner.id}
              banner={banner}
              index={index}
              count={banners.length}
              busy={busy}
              editFailed={
                failed?.intent === 'banner-editar' && failed.bannerId === String(banner.id)
                  ? failed.bannerValues
                  : null
              }
              nonce={actionData?.at ?? 0}
            />
          ))}
        </ol>
      )}
      <AdminForm
        method="post"
        encType="multipart/form-data"
        className="flex flex-col gap-3 rounded-lg border border-dashed border-brand-200 p-3"
        data-testid="banner-create"
        key={`create-${actionData?.intent === 'banner-crear' && actionData.ok ? actionData.at : 0}`}
      >
        <h3 className="font-semibold">Agregar banner</h3>
        <input type="hidden" name="intent" value="banner-crear" />
        <Field
          id="banner-desktop"
          label="Imagen para pantallas anchas o video"
          hint="Imagen de hasta 10 MB (por ejemplo 1600 × 600) o video MP4, WebM u Ogg de hasta 50 MB."
        >
          <input
            id="banner-desktop"
            name="desktop"
            type="file"
            accept="image/*,video/mp4,video/webm,video/ogg"
            aria-describedby="banner-desktop-hint"
            className="block w-full text-sm"
          />
        </Field>
        <Field
          id="banner-mobile"
          label="Imagen para celulares (opcional)"
          hint="Se muestra debajo de 700 px de ancho, por ejemplo 700 × 700. No aplica a videos."
        >
          <input
            id="banner-mobile"
            name="mobile"
            type="file"
            accept="image/*"
            aria-describedby="banner-mobile-hint"
            className="block w-full text-sm"
          />
        </Field>
        <BannerFieldsInputs
          prefix="banner-new"
          alt={createFailed?.alt ?? ''}
          link={createFailed?.link ?? ''}
          active={createFailed?.active ?? true}
        />
        <div>
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            Agregar banner
          </button>
        </div>
      </AdminForm>
    </section>
  )
}
