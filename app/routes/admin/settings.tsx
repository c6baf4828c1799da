import { ActionMessage } from '#app/components/admin/form-message.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import {
  bannerUploadsFrom,
  createBanner,
  deleteBanner,
  listAdminBanners,
  moveBanner,
  updateBanner,
} from '#app/modules/settings/banners.server.ts'
import {
  listSettingChanges,
  listShippingZones,
  readCarrierSettings,
  readStoreSettings,
  removeShippingZone,
  saveShippingZone,
  saveStoreSettings,
  settingDefaults,
  SettingsRefused,
  shippingZoneChoices,
  ShippingZoneRefused,
  withReadableChanges,
} from '#app/modules/settings/settings.server.ts'
import {
  BANNER_MESSAGES,
  bannerTarget,
  loadedSettings,
  SETTING_LABELS,
  SETTINGS_MESSAGES,
  settingsAsFormValues,
  settingsFormValues,
  SettingsActionSchema,
  SHIPPING_ZONE_MESSAGES,
  shippingZoneFormValues,
  type SettingsFieldErrors,
  type SettingsIntent,
  type ShippingZoneFieldErrors,
} from '#app/modules/settings/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { successAnswer } from '#app/utils/action-answer.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { BannersSection } from './settings/banners-section.tsx'
import { ChangesSection, shownSettingValue } from './settings/changes-section.tsx'
import { noteAuditChanges } from '#app/modules/audit/changes.ts'
import { SettingsForm } from './settings/settings-form.tsx'
import { ShippingZonesSection } from './settings/shipping-zones-section.tsx'
import type { Route } from './+types/settings'
import { formText } from '#app/utils/form-text.ts'

/**
 * /admin/configuraciones: shipping, shipping by zone, contact, seller identification, hold and
 * session limits, electronic invoices, shipping with carriers, home banners and their history.
 */

export const meta: Route.MetaFunction = () => [{ title: 'Configuraciones | Administración' }]

export async function loader({ context }: Route.LoaderArgs) {
  const { env, reads, database, carriers, checkout } = servicesOf(context)
  const current = await readStoreSettings(database.db, settingDefaults(env))
  const carrier = await readCarrierSettings(database.db, env)
  return {
    values: settingsAsFormValues(current),
    /** Posted back with the form: the save writes only what the admin changed from these. */
    loaded: JSON.stringify(current),
    shippingZones: await listShippingZones(database.db),
    /** The zone form's select: each department with its municipalities. */
    zoneChoices: shippingZoneChoices(),
    /** Envia is set up (ENVIA_TOKEN): live quotes and guías can be asked for. */
    carriersConfigured: carriers !== null,
    /** Which online providers this server has (keys configured, or simulated on this machine). */
    paymentProviders: checkout.onlinePayments,
    /** The pickup street, municipality and phone are all saved (guías and quotes need them). */
    carrierOriginComplete: carrier.origin !== null,
    banners: await listAdminBanners(reads),
    changes: withReadableChanges(await listSettingChanges(database.db)),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const form = await requireFormData(request)
  const { env, database, media } = servicesOf(context)
  const intent = formText(form, 'intent') as SettingsIntent
  const values = intent === 'guardar' ? settingsFormValues(form) : undefined
  const loaded = intent === 'guardar' ? formText(form, 'loaded') : null
  const zoneValues = intent === 'zona-guardar' ? shippingZoneFormValues(form) : undefined
  const bannerValues = {
    alt: formText(form, 'alt'),
    link: formText(form, 'link'),
    active: form.get('active') === 'on',
  }
  const done = (message: string) => successAnswer(message, { intent })
  try {
    const parsed = SettingsActionSchema.safeParse(Object.fromEntries(form))
    if (!parsed.success) throw new Refusal(BANNER_MESSAGES.badRequest, { status: 400, standsAlone: true })
    const input = parsed.data
    switch (input.intent) {
      case 'guardar': {
        const { changed, changes } = await saveStoreSettings(
          database.db,
          settingDefaults(env),
          values!,
          loadedSettings(loaded),
          admin.email,
        )
        noteAuditChanges(
          context,
          changes.map(({ key, before, after }) => ({
            subject: 'Configuraciones',
            label: SETTING_LABELS[key],
            before: shownSettingValue(key, before),
            after: shownSettingValue(key, after),
          })),
        )
        return done(changed.length ? SETTINGS_MESSAGES.saved : SETTINGS_MESSAGES.unchanged)
      }
      case 'banner-crear': {
        const files = await bannerUploadsFrom(form)
        await createBanner(database.db, media.storage, { ...bannerValues, ...files }, admin.email)
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
      case 'zona-guardar': {
        const { changed } = await saveShippingZone(database.db, zoneValues!, admin.email)
        return done(changed ? SHIPPING_ZONE_MESSAGES.saved : SHIPPING_ZONE_MESSAGES.unchanged)
      }
      case 'zona-quitar':
        await removeShippingZone(database.db, input.code, admin.email)
        return done(SHIPPING_ZONE_MESSAGES.removed)
    }
  } catch (thrown) {
    const fieldErrors: SettingsFieldErrors & ShippingZoneFieldErrors =
      thrown instanceof SettingsRefused
        ? thrown.errors
        : thrown instanceof ShippingZoneRefused
          ? thrown.errors
          : {}
    const words = {
      unexpected:
        intent === 'guardar'
          ? SETTINGS_MESSAGES.unexpected
          : intent === 'zona-guardar' || intent === 'zona-quitar'
            ? SHIPPING_ZONE_MESSAGES.unexpected
            : BANNER_MESSAGES.unexpected,
    }
    return formFailure(thrown, request, words, {
      intent,
      values,
      fieldErrors,
      // A refused form keeps comparing with what it was first loaded with.
      loaded,
      zoneValues,
      bannerValues,
      bannerId: formText(form, 'id'),
    })
  }
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const {
    values,
    loaded,
    shippingZones,
    zoneChoices,
    carriersConfigured,
    carrierOriginComplete,
    paymentProviders,
    banners,
    changes,
  } = loaderData
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
      <ActionMessage answer={actionData} />
      <SettingsForm
        key={`settings-${actionData?.intent === 'guardar' ? actionData.at : 0}`}
        values={failed?.intent === 'guardar' && failed.values ? failed.values : values}
        loaded={failed?.intent === 'guardar' && failed.loaded ? failed.loaded : loaded}
        errors={failed?.intent === 'guardar' ? failed.fieldErrors : {}}
        municipalityChoices={zoneChoices}
        carriersConfigured={carriersConfigured}
        carrierOriginComplete={carrierOriginComplete}
        paymentProviders={paymentProviders}
      />
      <ShippingZonesSection zones={shippingZones} choices={zoneChoices} actionData={actionData} />
      <BannersSection banners={banners} actionData={actionData} />
      <ChangesSection changes={changes} />
    </section>
  )
}
