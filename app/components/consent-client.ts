import {
  CONSENT_CHANGE_EVENT,
  CONSENT_FORM_ID,
  isAdminPath,
  readConsent,
  type Consent,
} from '#app/modules/analytics/consent.ts'
import { pageNameOf } from '#app/modules/analytics/tracking.ts'
import { hasStaffCookie } from '#app/modules/auth/staff-device.ts'

/**
 * The consent banner's script, loaded lazily by the store layout (never part of the first visit's
 * JavaScript). The banner itself is server-drawn HTML that works as a plain form; this only makes
 * it answer in place (no reload), opens it from the footer's "Preferencias de privacidad" and
 * starts the click and page-view tracker once analytics are allowed.
 */

// Starts on import (the layout only imports it: the fewest bytes in the first visit's JavaScript).
startConsent()

function bannerForm() {
  return document.getElementById(CONSENT_FORM_ID) as HTMLFormElement | null
}

/** Keeps focused elements clear of the open banner (app.css: scroll-padding-bottom). */
function reserveBannerSpace(form: HTMLFormElement) {
  document.documentElement.style.setProperty(
    '--consent-banner-height',
    form.hidden ? '0px' : `${form.offsetHeight + 16}px`,
  )
}

function startConsent() {
  document.addEventListener('submit', (event) => void choose(event))
  document.addEventListener('click', (event) => {
    const opener = (event.target as Element | null)?.closest?.('[data-consent-open]')
    const form = bannerForm()
    if (!opener || !form) return
    event.preventDefault()
    const consent = readConsent(document.cookie)
    for (const box of form.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))
      box.checked = Boolean(consent?.[box.name === 'analitica' ? 'analytics' : 'advertising'])
    form.hidden = false
    reserveBannerSpace(form)
    form.querySelector<HTMLInputElement>('input[type=checkbox]')?.focus()
  })
  const form = bannerForm()
  if (form) reserveBannerSpace(form)
  startTrackerIfAllowed()
}

async function choose(event: SubmitEvent) {
  const form = event.target as HTMLFormElement
  if (form.id !== CONSENT_FORM_ID || form.dataset.native) return
  event.preventDefault()
  // The pressed button's value ("Aceptar todo"…), also where FormData ignores a submitter.
  const body = new FormData(form)
  const button = event.submitter as HTMLButtonElement | null
  if (button?.name) body.set(button.name, button.value)
  // The site that sent the shopper here (a plain post cannot tell): kept only if analytics is allowed.
  if (document.referrer) body.set('origen', document.referrer)
  try {
    const response = await fetch(form.action, {
      method: 'POST',
      body,
      headers: { Accept: 'application/json' },
    })
    if (!response.ok) throw new Error(String(response.status))
    const { consent } = (await response.json()) as { consent: Consent }
    const hadFocus = form.contains(document.activeElement)
    form.hidden = true
    reserveBannerSpace(form)
    // The focus was on the pressed button, now hidden: put it where the choice can be changed
    // again (the footer's "Preferencias de privacidad"), or on the page's main content.
    if (hadFocus) focusAfterAnswer()
    window.dispatchEvent(new CustomEvent(CONSENT_CHANGE_EVENT, { detail: consent }))
    startTrackerIfAllowed()
  } catch {
    // Let the browser post the form itself (it comes back to this page with the answer).
    form.dataset.native = '1'
    form.requestSubmit(event.submitter)
  }
}

function focusAfterAnswer() {
  const target =
    document.querySelector<HTMLElement>('[data-consent-open]') ?? document.querySelector<HTMLElement>('main')
  if (!target) return
  if (!target.matches('a[href], button, input, select, textarea, [tabindex]')) target.tabIndex = -1
  target.focus({ preventScroll: true })
}

/** Analytics consent given, and not a device that signed in to the back office. */
export function consentAllowsTracking(): boolean {
  return Boolean(readConsent(document.cookie)?.analytics) && !hasStaffCookie(document.cookie)
}

function startTrackerIfAllowed() {
  if (consentAllowsTracking() && !isAdminPath(location.pathname))
    void import('./tracker.ts').then((tracker) =>
      tracker.startTracker({
        allowed: consentAllowsTracking,
        pageNameOf: (path) => pageNameOf(path)?.name ?? null,
      }),
    )
}
