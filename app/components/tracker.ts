// This chunk imports nothing (the caller hands it the consent check and the page names), so loading
// it needs no other chunk and the storefront's first visit carries no preload helper for it.
export const CLICK_BEACON_PATH = '/api/analitica/clic'
export const VIEW_BEACON_PATH = '/api/analitica/vista'

/**
 * Clicks and page views (spec §7), loaded only after analytics consent: a click on an element
 * with `data-track` sends its name; leaving a page (another route, the tab hidden or closed) sends
 * the page and the whole seconds spent on it. Every send checks the consent again, so a withdrawal
 * stops it at once.
 */
export type TrackerOptions = {
  /** Whether measuring is allowed right now (consent given, not a staff device). */
  allowed: () => boolean
  /** The name a path is recorded under (`pageNameOf` in analytics/tracking.ts); null: never counted. */
  pageNameOf: (pathname: string) => string | null
}

let options: TrackerOptions | null = null
/** The page being timed (null: not counted), the milliseconds so far and since when it is visible. */
let page: string | null = null
let spentMs = 0
let visibleSince: number | null = null
let visitSent = false

const now = () => performance.now()
const visibleNow = () => (document.visibilityState === 'visible' ? now() : null)

function send(path: string, body: object) {
  if (!options?.allowed()) return
  const json = JSON.stringify(body)
  if (!navigator.sendBeacon?.(path, json)) void fetch(path, { method: 'POST', body: json, keepalive: true })
}

/** Reports the time on the current page so far (with the visit, the first time). */
function flush() {
  if (visibleSince !== null) spentMs += now() - visibleSince
  visibleSince = visibleNow()
  const seconds = Math.round(spentMs / 1000)
  if (page !== null && (!visitSent || seconds > 0))
    send(VIEW_BEACON_PATH, { page_title: page, time_spent: seconds, new_visit: !visitSent })
  visitSent = true
  spentMs = 0
}

function begin(since: number | null) {
  page = options!.pageNameOf(location.pathname)
  spentMs = 0
  visitSent = false
  visibleSince = since
}

/** The page's path is only read here: a client navigation has already changed it. */
let lastPath = ''
function onRouteChange() {
  if (location.pathname === lastPath) return
  lastPath = location.pathname
  // The page left is reported even when the new one is never counted (e.g. into /admin).
  flush()
  begin(visibleNow())
}

export function startTracker(trackerOptions: TrackerOptions) {
  if (options) return
  options = trackerOptions
  lastPath = location.pathname
  // The first page is timed from the navigation's start (performance.now()'s origin), not from when
  // this chunk arrived after the consent script.
  begin(document.visibilityState === 'visible' ? 0 : null)
  document.addEventListener(
    'click',
    (event) => {
      const name = (event.target as Element | null)?.closest?.('[data-track]')?.getAttribute('data-track')
      if (name && options!.pageNameOf(location.pathname) !== null)
        send(CLICK_BEACON_PATH, { element_name: name })
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
    else visibleSince = now()
  })
  window.addEventListener('pagehide', flush)
}
