import { useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { Field, fieldDescribedBy } from '#app/components/admin/field.tsx'
import { ActionMessage, inputClass, primaryButtonClass } from '#app/components/admin/form-message.tsx'
import { noteAuditChanges } from '#app/modules/audit/changes.ts'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import {
  readSeoSettings,
  saveSeoSettings,
  SeoSettingsRefused,
} from '#app/modules/settings/seo-settings.server.ts'
import {
  ROBOTS_DIRECTIVES,
  SEO_SETTING_KEYS,
  SEO_SETTING_LABELS,
  SEO_SETTINGS_MESSAGES,
  type SeoSettingKey,
} from '#app/modules/settings/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { readActionAnswer, successAnswer } from '#app/utils/action-answer.ts'
import { formFailure, refusedAnswer } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import type { Route } from './+types/seo'
import { formTexts } from '#app/utils/form-text.ts'

/**
 * /admin/seo (owners: the `settings` permission): what sitemap.xml lists, the lines robots.txt
 * adds, and Google Search Console's verification tag on the home page. A product's or category's
 * own title, description and URL are in its form.
 */

export const meta: Route.MetaFunction = () => [{ title: 'SEO | Administración' }]

export async function loader({ context }: Route.LoaderArgs) {
  const { reads, env } = servicesOf(context)
  return { settings: await readSeoSettings(reads.db), origin: env.publicUrl }
}

const shown = (key: SeoSettingKey, value: unknown) =>
  typeof value === 'boolean' ? (value ? 'Sí' : 'No') : String(value ?? '') || null

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const form = await requireFormData(request)
  const values = formTexts(form, SEO_SETTING_KEYS)
  try {
    const { changes } = await saveSeoSettings(servicesOf(context).database.db, values, admin.email)
    noteAuditChanges(
      context,
      changes.map(({ key, before, after }) => ({
        subject: 'SEO',
        label: SEO_SETTING_LABELS[key],
        before: shown(key, before),
        after: shown(key, after),
      })),
    )
    return successAnswer(changes.length ? SEO_SETTINGS_MESSAGES.saved : SEO_SETTINGS_MESSAGES.unchanged)
  } catch (thrown) {
    if (thrown instanceof SeoSettingsRefused) {
      return refusedAnswer(thrown.message, thrown.status, {
        fieldErrors: thrown.errors,
        values: {
          ...values,
          seoSitemapProducts: values.seoSitemapProducts === 'on',
          seoSitemapCategories: values.seoSitemapCategories === 'on',
        },
      })
    }
    return formFailure(thrown, request, { unexpected: SEO_SETTINGS_MESSAGES.unexpected })
  }
}

export default function SeoSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, origin } = loaderData
  const navigation = useNavigation()
  const answer = readActionAnswer(actionData)
  const errors = answer.fieldErrors
  const typed = answer.values
  const value = (key: SeoSettingKey) => (typed ? typed[key] : settings[key])
  const text = (key: 'seoRobotsExtra' | 'seoGoogleVerification') => String(value(key) ?? '')
  const checked = (key: 'seoSitemapProducts' | 'seoSitemapCategories') => Boolean(value(key))
  // A refused save shows the values typed; otherwise the form starts from the settings as saved
  // (drawn again once they change, which comes after the save's answer).
  const formKey = typed ? `refused-${answer.nonce}` : JSON.stringify(settings)
  return (
    <section aria-labelledby="seo-title" className="flex max-w-3xl flex-col gap-4">
      <h1 id="seo-title" className="text-2xl font-semibold">
        SEO
      </h1>
      <p className="text-sm text-gray-700">
        El título, la descripción y la URL de cada producto y categoría se editan en su formulario, con la
        vista previa de Google y de WhatsApp.
      </p>
      <ActionMessage answer={actionData} />
      <AdminForm
        key={formKey}
        method="post"
        className="flex flex-col gap-6 rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
        data-testid="seo-settings-form"
      >
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 font-semibold">sitemap.xml</legend>
          <p className="text-sm text-gray-600">
            La lista de páginas para los buscadores:{' '}
            <a href={`${origin}/sitemap.xml`} className="break-words text-brand-700 underline">
              {origin}/sitemap.xml
            </a>
            . La página de inicio siempre está.
          </p>
          {(['seoSitemapProducts', 'seoSitemapCategories'] as const).map((key) => (
            <label key={key} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name={key} defaultChecked={checked(key)} className="size-4" />
              {SEO_SETTING_LABELS[key]}
            </label>
          ))}
        </fieldset>
        <Field
          id="seo-robots"
          label={SEO_SETTING_LABELS.seoRobotsExtra}
          hint={`Se agregan a ${origin}/robots.txt después de las reglas de la tienda. Una por línea: ${ROBOTS_DIRECTIVES.join(', ')} («Disallow: /ruta»), o un comentario con #.`}
          error={errors.seoRobotsExtra}
        >
          <textarea
            id="seo-robots"
            name="seoRobotsExtra"
            rows={5}
            defaultValue={text('seoRobotsExtra')}
            spellCheck={false}
            aria-invalid={errors.seoRobotsExtra ? true : undefined}
            aria-describedby={fieldDescribedBy('seo-robots', errors.seoRobotsExtra, true)}
            className={`${inputClass} font-mono text-sm`}
          />
        </Field>
        <Field
          id="seo-verification"
          label={SEO_SETTING_LABELS.seoGoogleVerification}
          hint="En Google Search Console elige «Etiqueta HTML» y pega aquí el código de content (o la etiqueta completa). Va en la página de inicio; vacío, no se pone."
          error={errors.seoGoogleVerification}
        >
          <input
            id="seo-verification"
            name="seoGoogleVerification"
            type="text"
            maxLength={300}
            defaultValue={text('seoGoogleVerification')}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={errors.seoGoogleVerification ? true : undefined}
            aria-describedby={fieldDescribedBy('seo-verification', errors.seoGoogleVerification, true)}
            className={`${inputClass} font-mono text-sm`}
          />
        </Field>
        <div>
          <button type="submit" className={primaryButtonClass} disabled={navigation.state === 'submitting'}>
            Guardar
          </button>
        </div>
      </AdminForm>
    </section>
  )
}
