import { renderToStaticMarkup } from 'react-dom/server'
import type { Consent } from '#app/modules/analytics/consent.ts'
import { CONSENT_PATH, DATA_POLICY_PATH } from '#app/utils/paths.ts'

/** The banner's form id: the footer's "Preferencias de privacidad" and the banner script find it by it. */
export const CONSENT_FORM_ID = 'consentimiento'

/** Query parameter that opens the banner (the footer link, when JavaScript has not run). */
export const PREFERENCES_PARAM = 'preferencias'

const buttonClass = 'flex-1 rounded-full border px-4 py-2 text-sm font-semibold whitespace-nowrap'

function ConsentBanner({
  consent,
  open,
  returnTo,
}: {
  consent: Consent | null
  open: boolean
  returnTo: string
}) {
  return (
    <form
      id={CONSENT_FORM_ID}
      method="post"
      action={CONSENT_PATH}
      hidden={!open}
      aria-labelledby="consent-title"
      data-testid="consent-banner"
      className="fixed inset-x-0 bottom-0 z-50 max-h-[85vh] overflow-y-auto border-t border-brand-100 bg-white p-4 text-sm text-gray-700 shadow-[0_-4px_16px_rgba(0,0,0,0.12)] sm:inset-x-auto sm:right-4 sm:bottom-4 sm:max-w-md sm:rounded-xl sm:border"
    >
      <input type="hidden" name="volver" value={returnTo} />
      <h2 id="consent-title" className="text-base font-semibold text-ink">
        Tu privacidad
      </h2>
      <p className="mt-1">
        Con tu autorización (Ley 1581 de 2012) medimos cómo se usa la tienda y nuestra publicidad. Nada se
        activa hasta que elijas; puedes cambiarlo cuando quieras en «Preferencias de privacidad», al pie de la
        página.{' '}
        <a className="underline" href={DATA_POLICY_PATH}>
          Política de datos
        </a>
      </p>
      <label className="mt-3 flex items-start gap-2">
        <input
          type="checkbox"
          name="analitica"
          value="si"
          defaultChecked={consent?.analytics ?? false}
          className="mt-1 size-4"
        />
        <span>
          <strong>Analítica</strong>: contar las visitas, el tiempo en cada página y los clics en los botones
          de la tienda, sin saber quién eres.
        </span>
      </label>
      <label className="mt-2 flex items-start gap-2">
        <input
          type="checkbox"
          name="publicidad"
          value="si"
          defaultChecked={consent?.advertising ?? false}
          className="mt-1 size-4"
        />
        <span>
          <strong>Publicidad</strong>: medir nuestros anuncios en Meta (Facebook e Instagram).
        </span>
      </label>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="submit"
          name="eleccion"
          value="nada"
          className={`${buttonClass} border-gray-300 bg-white text-gray-800 hover:bg-gray-50`}
        >
          Rechazar todo
        </button>
        <button
          type="submit"
          name="eleccion"
          value="seleccion"
          className={`${buttonClass} border-brand-600 bg-white text-brand-700 hover:bg-brand-50`}
        >
          Aceptar selección
        </button>
        <button
          type="submit"
          name="eleccion"
          value="todo"
          className={`${buttonClass} border-brand-600 bg-brand-600 text-white hover:bg-brand-700`}
        >
          Aceptar todo
        </button>
      </div>
    </form>
  )
}

/**
 * The consent banner as HTML, drawn here on the server and put in the page as it is: it works
 * without JavaScript (a plain form post), and its markup and texts never enter the storefront's
 * JavaScript (the first visit is at its budget). Open on the first visit (no answer for this policy
 * version) and when asked for with `?preferencias`; otherwise present but hidden, for the footer's
 * "Preferencias de privacidad" to open in place.
 */
export function consentBannerHtml(request: Request, consent: Consent | null): string {
  const url = new URL(request.url)
  const open = consent === null || url.searchParams.has(PREFERENCES_PARAM)
  return renderToStaticMarkup(
    <ConsentBanner consent={consent} open={open} returnTo={`${url.pathname}${url.search}`} />,
  )
}
