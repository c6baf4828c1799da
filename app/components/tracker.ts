// This chunk imports nothing (the caller hands it the consent check), so loading it needs no other
// chunk and the storefront's first visit carries no preload helper for it.
export const CLICK_BEACON_PATH = '/api/analitica/clic'
export const VIEW_BEACON_PATH = '/api/analitica/vista'

const isAdminPath = (path: string) => /^\/admin(?:\/|$)/.test(path)
let trackingAllowed: () => boolean = () => false

/**
 * Clicks and page views (spec §7), loaded only after analytics consent: a click on an element
 * with `data-track` sends its name; leaving a page (another route, the tab hidden or closed) sends
 * the page and the whole seconds spent on it. Every send checks the consent again, so a withdrawal
 * stops it at once.
 */

let started = false
/** The page being timed, the milliseconds counted so far and since when it has been visible. */
let page = ''
let spentMs = 0
let visibleSince = 0
let visitSent = false

function send(path: string, body: object) {
  if (!trackingAllowed()) return
  const json = JSON.stringify(body)
  if (!navigator.sendBeacon?.(path, json)) void fetch(path, { method: 'POST', body: json, keepalive: true })
}

function pageName(): string {
  try {
    return decodeURIComponent(location.pathname)
  } catch {
    return location.pathname
  }
}

/** Reports the time on the current page so far (with the visit, the first time). */
function flush() {
  if (visibleSince) spentMs += Date.now() - visibleSince
  visibleSince = document.visibilityState === 'visible' ? Date.now() : 0
  const seconds = Math.round(spentMs / 1000)
  if (!isAdminPath(page) && (!visitSent || seconds > 0))
    send(VIEW_BEACON_PATH, { page_title: page, time_spent: seconds, new_visit: !visitSent })
  visitSent = true
  spentMs = 0
}

function begin() {
  page = pageName()
  spentMs = 0
  visitSent = false
  visibleSince = document.visibilityState === 'visible' ? Date.now() : 0
}

function onRouteChange() {
  if (pageName() === page) return
  flush()
  begin()
}

/** `allowed`: whether measuring is allowed right now (consent, staff device, page). */
export function startTracker(allowed: () => boolean) {
  if (started) return
  started = true
  trackingAllowed = allowed
  begin()
  document.addEventListener(
    'click',
    (event) => {
      const name = (event.target as Element | null)?.closest?.('[data-track]')?.getAttribute('data-track')
      if (name && !isAdminPath(location.pathname)) send(CLICK_BEACON_PATH, { element_name: name })
    },
    true,
  )
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method]
    history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
      original.apply(this, args)
      onRouteChange()
    }
  }
  window.addEventListener('popstate', onRouteChange)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush()
    else visibleSince = Date.now()
  })
  window.addEventListener('pagehide', flush)
}
