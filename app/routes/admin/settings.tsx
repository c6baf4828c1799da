import { useEffect } from 'react'
import { useNavigation } from 'react-router'
import { z } from 'zod'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { Field, fieldErrorId } from '#app/components/admin/field.tsx'
import {
  dangerButtonClass,
  FormMessage,
  inputClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { formatOrderDate } from '#app/components/admin/order-bits.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { uploadsFrom } from '#app/modules/media/form-uploads.server.ts'
import {
  createBanner,
  deleteBanner,
  listAdminBanners,
  moveBanner,
  updateBanner,
  type AdminBanner,
} from '#app/modules/settings/banners.server.ts'
import {
  listSettingChanges,
  readStoreSettings,
  saveStoreSettings,
  settingDefaults,
  SettingsRefused,
  type SettingChange,
} from '#app/modules/settings/settings.server.ts'
import {
  BANNER_CHANGE_KEY,
  BANNER_MESSAGES,
  bannerTarget,
  loadedSettings,
  MONEY_SETTINGS,
  SETTING_LABELS,
  SETTINGS_MESSAGES,
  settingsAsFormValues,
  settingsFormValues,
  type SettingKey,
  type SettingsFieldErrors,
  type SettingsFormValues,
} from '#app/modules/settings/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { Route } from './+types/settings'

/** /admin/configuraciones: shipping, contact, seller identification, home banners and their history. */

export const meta: Route.MetaFunction = () => [{ title: 'Configuraciones | Administración' }]

export async function loader({ context }: Route.LoaderArgs) {
  const { env, reads, database } = servicesOf(context)
  const current = await readStoreSettings(database.db, settingDefaults(env))
  return {
    values: settingsAsFormValues(current),
    /** Posted back with the form: the save writes only what the admin changed from these. */
    loaded: JSON.stringify(current),
    banners: await listAdminBanners(reads),
    changes: await listSettingChanges(database.db),
  }
}

const id = z.coerce.number().int().positive()
const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('guardar') }),
  z.object({ intent: z.literal('banner-crear') }),
  z.object({ intent: z.literal('banner-editar'), id }),
  z.object({ intent: z.literal('banner-mover'), id, to: z.string() }),
  z.object({ intent: z.literal('banner-eliminar'), id }),
])

type Intent = z.infer<typeof ActionSchema>['intent']

const field = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const form = await requireFormData(request)
  const { env, database, media } = servicesOf(context)
  const intent = field(form, 'intent') as Intent
  const values = intent === 'guardar' ? settingsFormValues(form) : null
  const loaded = intent === 'guardar' ? field(form, 'loaded') : null
  const bannerValues = {
    alt: field(form, 'alt'),
    link: field(form, 'link'),
    active: form.get('active') === 'on',
  }
  const done = (message: string) => ({ ok: true as const, intent, message, at: Date.now() })
  try {
    const parsed = ActionSchema.safeParse(Object.fromEntries(form))
    if (!parsed.success) throw new Refusal(BANNER_MESSAGES.badRequest, { status: 400, standsAlone: true })
    const input = parsed.data
    switch (input.intent) {
      case 'guardar': {
        const { changed } = await saveStoreSettings(
          database.db,
          settingDefaults(env),
          values!,
          loadedSettings(loaded),
          admin.email,
        )
        return done(changed.length ? SETTINGS_MESSAGES.saved : SETTINGS_MESSAGES.unchanged)
      }
      case 'banner-crear': {
        const desktops = await uploadsFrom(form, 'desktop')
        const mobiles = await uploadsFrom(form, 'mobile')
        // One file per field (the inputs take one): never a silently ignored second one.
        if (desktops.length > 1 || mobiles.length > 1)
          throw new Refusal(BANNER_MESSAGES.oneFile, { status: 400, standsAlone: true })
        const [desktop] = desktops
        const [mobile] = mobiles
        await createBanner(
          database.db,
          media.storage,
          { ...bannerValues, desktop: desktop ?? null, mobile: mobile ?? null },
          admin.email,
        )
        return done(BANNER_MESSAGES.created)
      }
      case 'banner-editar':
        await updateBanner(database.db, input.id, bannerValues, admin.email)
        return done(BANNER_MESSAGES.updated)
      case 'banner-mover':
        await moveBanner(database.db, input.id, bannerTarget(input.to), admin.email)
        return done(BANNER_MESSAGES.moved)
      case 'banner-eliminar':
        await deleteBanner(database.db, media.storage, input.id, admin.email)
        return done(BANNER_MESSAGES.deleted)
    }
  } catch (thrown) {
    const errors: SettingsFieldErrors = thrown instanceof SettingsRefused ? thrown.errors : {}
    const words = {
      unexpected: intent === 'guardar' ? SETTINGS_MESSAGES.unexpected : BANNER_MESSAGES.unexpected,
    }
    return formFailure(thrown, request, words, {
      intent,
      values,
      // A refused form keeps comparing with what it was first loaded with.
      loaded,
      errors,
      bannerValues,
      bannerId: field(form, 'id'),
    })
  }
}

type ActionData = Route.ComponentProps['actionData']

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { values, loaded, banners, changes } = loaderData
  const failed = actionData && !actionData.ok ? actionData : null
  return (
    <section aria-labelledby="settings-title" className="flex flex-col gap-6">
      <div>
        <h1 id="settings-title" className="text-2xl font-semibold">
          Configuraciones
        </h1>
        <p className="text-sm text-gray-600">
          Los cambios se aplican de inmediato en la tienda y en el próximo pedido.
        </p>
      </div>
      <FormMessage
        message={actionData?.message}
        tone={actionData?.ok ? 'success' : 'error'}
        nonce={actionData?.at}
      />
      <SettingsForm
        key={`settings-${actionData?.intent === 'guardar' ? actionData.at : 0}`}
        values={failed?.intent === 'guardar' && failed.values ? failed.values : values}
        loaded={failed?.intent === 'guardar' && failed.loaded ? failed.loaded : loaded}
        errors={failed?.intent === 'guardar' ? failed.errors : {}}
      />
      <BannersSection banners={banners} actionData={actionData} />
      <ChangesSection changes={changes} />
    </section>
  )
}

const cardClass = 'flex flex-col gap-4 rounded-xl border border-brand-100 bg-white p-4 shadow-sm'

function TextField({
  name,
  values,
  errors,
  type = 'text',
  hint,
  inputMode,
  autoComplete,
}: {
  name: SettingKey
  values: SettingsFormValues
  errors: SettingsFieldErrors
  type?: string
  hint?: string
  inputMode?: 'numeric' | 'tel' | 'email'
  autoComplete?: string
}) {
  const inputId = `setting-${name}`
  const error = errors[name]
  return (
    <Field id={inputId} label={SETTING_LABELS[name]} hint={hint} error={error}>
      <input
        id={inputId}
        name={name}
        type={type}
        inputMode={inputMode}
        autoComplete={autoComplete ?? 'off'}
        defaultValue={values[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? fieldErrorId(inputId) : hint ? `${inputId}-hint` : undefined}
        className={inputClass}
      />
    </Field>
  )
}

function SettingsForm({
  values,
  loaded,
  errors,
}: {
  values: SettingsFormValues
  loaded: string
  errors: SettingsFieldErrors
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'guardar'
  const props = { values, errors }
  // After a refusal the form is rebuilt with what was typed: take the admin to the first bad field.
  useEffect(() => {
    document.querySelector<HTMLElement>('[data-testid="settings-form"] [aria-invalid="true"]')?.focus()
  }, [])
  return (
    <AdminForm method="post" className="flex flex-col gap-4" data-testid="settings-form" noValidate>
      <input type="hidden" name="intent" value="guardar" />
      <input type="hidden" name="loaded" value={loaded} />
      <fieldset className={cardClass}>
        <legend className="float-left mb-1 text-lg font-semibold">Envío</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="shippingCost"
            inputMode="numeric"
            hint="Pesos enteros; 0 = envío gratis en todas las compras."
            {...props}
          />
          <TextField
            name="freeShippingThreshold"
            inputMode="numeric"
            hint="El envío es gratis cuando el subtotal supera este valor."
            {...props}
          />
        </div>
      </fieldset>
      <fieldset className={cardClass}>
        <legend className="float-left mb-1 text-lg font-semibold">Contacto por WhatsApp</legend>
        <TextField
          name="whatsappNumber"
          type="tel"
          inputMode="tel"
          hint="Celular con indicativo 57, por ejemplo 573001234567."
          {...props}
        />
        <Field
          id="setting-whatsappText"
          label={SETTING_LABELS.whatsappText}
          hint="El texto con el que se abre el chat desde la tienda."
          error={errors.whatsappText}
        >
          <textarea
            id="setting-whatsappText"
            name="whatsappText"
            rows={2}
            defaultValue={values.whatsappText}
            aria-invalid={errors.whatsappText ? true : undefined}
            aria-describedby={errors.whatsappText ? fieldErrorId('setting-whatsappText') : undefined}
            className={inputClass}
          />
        </Field>
      </fieldset>
      <fieldset className={cardClass}>
        <legend className="float-left mb-1 text-lg font-semibold">Identificación del vendedor</legend>
        <p className="-mt-2 text-sm text-gray-600">Se muestra en el pie de página (Ley 1480 de 2011).</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="sellerLegalName" autoComplete="organization" {...props} />
          <TextField name="sellerNit" hint="Por ejemplo 901.234.567-8." {...props} />
          <TextField name="sellerAddress" autoComplete="street-address" {...props} />
          <TextField name="sellerEmail" type="email" inputMode="email" autoComplete="email" {...props} />
        </div>
        <TextField name="deliveryTime" hint="Por ejemplo: Entrega de 1 a 5 días hábiles." {...props} />
      </fieldset>
      <div>
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          {busy ? 'Guardando…' : 'Guardar configuración'}
        </button>
      </div>
    </AdminForm>
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

function BannerFieldsInputs({
  prefix,
  alt,
  link,
  active,
}: {
  prefix: string
  alt: string
  link: string
  active: boolean
}) {
  return (
    <>
      <Field
        id={`${prefix}-alt`}
        label="Texto alternativo"
        hint="Describe la imagen, por ejemplo «Collares en oferta»."
      >
        <input
          id={`${prefix}-alt`}
          name="alt"
          type="text"
          maxLength={160}
          defaultValue={alt}
          className={inputClass}
        />
      </Field>
      <Field
        id={`${prefix}-link`}
        label="Enlace (opcional)"
        hint="Una ruta de la tienda (/categoria/…) o una dirección https://."
      >
        <input
          id={`${prefix}-link`}
          name="link"
          type="text"
          inputMode="url"
          defaultValue={link}
          className={inputClass}
        />
      </Field>
      <label className="flex items-center gap-2 text-sm font-medium text-gray-700">
        <input type="checkbox" name="active" defaultChecked={active} className="size-5" />
        Activo (se muestra en la página de inicio)
      </label>
    </>
  )
}

function BannersSection({ banners, actionData }: { banners: AdminBanner[]; actionData: ActionData }) {
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
          {banners.map((banner, index) => {
            const editFailed =
              failed?.intent === 'banner-editar' && failed.bannerId === String(banner.id)
                ? failed.bannerValues
                : null
            return (
              <li
                key={banner.id}
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
                      disabled={busy || index === banners.length - 1}
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
                          max={banners.length}
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
                    <AdminForm
                      method="post"
                      className="mt-2 flex flex-col gap-3"
                      key={`edit-${banner.id}-${actionData?.at ?? 0}`}
                    >
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
          })}
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

/** A value of the history as the owner reads it. */
function shown(key: string, value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (MONEY_SETTINGS.has(key) && typeof value === 'number') return formatCOP(value)
  if (key === BANNER_CHANGE_KEY && typeof value === 'object') {
    const banner = value as { alt?: string; position?: number; active?: boolean; link?: string | null }
    const parts = [
      `«${banner.alt ?? ''}»`,
      `posición ${banner.position ?? '?'}`,
      banner.active ? 'activo' : 'inactivo',
    ]
    if (banner.link) parts.push(`enlace ${banner.link}`)
    return parts.join(', ')
  }
  return String(value)
}

function changeLabel(change: SettingChange): string {
  if (change.key !== BANNER_CHANGE_KEY) return SETTING_LABELS[change.key as SettingKey] ?? change.key
  if (change.oldValue === null) return 'Banner agregado'
  if (change.newValue === null) return 'Banner eliminado'
  return 'Banner modificado'
}

function ChangesSection({ changes }: { changes: SettingChange[] }) {
  return (
    <section aria-labelledby="changes-title" className={cardClass}>
      <h2 id="changes-title" className="text-lg font-semibold">
        Últimos cambios
      </h2>
      {changes.length === 0 ? (
        <p className="text-sm text-gray-600">Todavía no hay cambios: se usan los valores iniciales.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-brand-50 text-sm" data-testid="setting-changes">
          {changes.map((change) => (
            <li key={change.id} className="flex flex-col gap-1 py-2" data-testid="setting-change">
              <div className="flex flex-wrap justify-between gap-2">
                <span className="font-medium">{changeLabel(change)}</span>
                <span className="text-gray-600">
                  {formatOrderDate(change.changedAt)} · {change.changedBy}
                </span>
              </div>
              <p className="break-words text-gray-700">
                {change.oldValue === null ? null : (
                  <span className="line-through decoration-gray-400">
                    {shown(change.key, change.oldValue)}
                  </span>
                )}
                {change.oldValue !== null && change.newValue !== null ? ' → ' : null}
                {change.newValue === null ? null : <span>{shown(change.key, change.newValue)}</span>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
