import { renderToStaticMarkup } from 'react-dom/server'
import { CONSENT_FORM_ID, type Consent } from '#app/modules/analytics/consent.ts'
import { CONSENT_PATH, DATA_POLICY_PATH } from '#app/utils/paths.ts'

/** Query parameter that opens the banner (the footer link, when JavaScript has not run). */
export const PREFERENCES_PARAM = 'preferencias'

const buttonClass = 'rounded-full border px-4 py-2 text-sm font-semibold whitespace-nowrap'
/** "Rechazar todo" and "Aceptar todo" look the same: neither answer is nudged (Ley 1581: a free choice). */
const answerAllClass = `${buttonClass} border-brand-700 bg-white text-brand-700 hover:bg-brand-50`

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
      {/* "Rechazar todo" and "Aceptar todo" side by side, the same size; the selection below. */}
      <div className="mt-3 grid grid-cols-2 gap-2">
        <button type="submit" name="eleccion" value="nada" className={answerAllClass}>
          Rechazar todo
        </button>
        <button type="submit" name="eleccion" value="todo" className={answerAllClass}>
          Aceptar todo
        </button>
        <button
          type="submit"
          name="eleccion"
          value="seleccion"
          className={`${buttonClass} col-span-2 border-gray-300 bg-white text-gray-800 hover:bg-gray-50`}
        >
          Aceptar selección
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

/**
 * The page a browser without JavaScript gets when the consent form is refused (another site, too
 * many answers, an unreadable form): the message in Spanish and the way back to the store, instead
 * of the JSON the banner's script reads.
 */
export function consentFailurePage(message: string, returnTo: string): string {
  return `<!doctype html>${renderToStaticMarkup(
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>Preferencias de privacidad | Vitrina</title>
      </head>
      <body
        style={{
          fontFamily: 'system-ui, sans-serif',
          margin: '2rem auto',
          maxWidth: '32rem',
          padding: '0 1rem',
        }}
      >
        <h1 style={{ fontSize: '1.25rem' }}>No guardamos tu elección de privacidad</h1>
        <p role="alert">{message}</p>
        <p>
          <a href={returnTo}>Volver a la tienda</a>
        </p>
      </body>
    </html>,
  )}`
}
