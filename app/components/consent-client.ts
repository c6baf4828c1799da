import {
  CONSENT_CHANGE_EVENT,
  readConsent,
  STAFF_DEVICE_COOKIE,
  type Consent,
} from '#app/modules/analytics/consent.ts'

/**
 * The consent banner's script, loaded lazily by the store layout (never part of the first visit's
 * JavaScript). The banner itself is server-drawn HTML that works as a plain form; this only makes
 * it answer in place (no reload), opens it from the footer's "Preferencias de privacidad" and
 * starts the click and page-view tracker once analytics are allowed.
 */

const FORM_ID = 'consentimiento'

// Starts on import (the layout only imports it: the fewest bytes in the first visit's JavaScript).
startConsent()

function startConsent() {
  document.addEventListener('submit', (event) => void choose(event))
  document.addEventListener('click', (event) => {
    const opener = (event.target as Element | null)?.closest?.('[data-consent-open]')
    const form = document.getElementById(FORM_ID) as HTMLFormElement | null
    if (!opener || !form) return
    event.preventDefault()
    const consent = readConsent(document.cookie)
    for (const box of form.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))
      box.checked = Boolean(consent?.[box.name === 'analitica' ? 'analytics' : 'advertising'])
    form.hidden = false
    form.querySelector<HTMLInputElement>('input[type=checkbox]')?.focus()
  })
  startTrackerIfAllowed()
}

async function choose(event: SubmitEvent) {
  const form = event.target as HTMLFormElement
  if (form.id !== FORM_ID || form.dataset.native) return
  event.preventDefault()
  // The pressed button's value ("Aceptar todo"…), also where FormData ignores a submitter.
  const body = new FormData(form)
  const button = event.submitter as HTMLButtonElement | null
  if (button?.name) body.set(button.name, button.value)
  try {
    const response = await fetch(form.action, {
      method: 'POST',
      body,
      headers: { Accept: 'application/json' },
    })
    if (!response.ok) throw new Error(String(response.status))
    const { consent } = (await response.json()) as { consent: Consent }
    form.hidden = true
    window.dispatchEvent(new CustomEvent(CONSENT_CHANGE_EVENT, { detail: consent }))
    startTrackerIfAllowed()
  } catch {
    // Let the browser post the form itself (it comes back to this page with the answer).
    form.dataset.native = '1'
    form.requestSubmit(event.submitter)
  }
}

/** Only with analytics consent, never on a device that signed in to the back office, never there. */
export function trackingAllowed(): boolean {
  return (
    Boolean(readConsent(document.cookie)?.analytics) &&
    !document.cookie.split(';').some((part) => part.trim().startsWith(`${STAFF_DEVICE_COOKIE}=`)) &&
    !isAdminPath(location.pathname)
  )
}

const isAdminPath = (path: string) => /^\/admin(?:\/|$)/.test(path)

function startTrackerIfAllowed() {
  if (trackingAllowed()) void import('./tracker.ts').then((tracker) => tracker.startTracker(trackingAllowed))
}
