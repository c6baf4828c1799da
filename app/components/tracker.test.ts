import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'

/**
 * The tracker's flush logic against a fake browser: a document whose visibility the test sets, a
 * history whose pushState moves a fake location, navigator.sendBeacon recorded, performance.now()
 * on a clock the test moves.
 */

let clock = 0
const beacons: { path: string; body: Record<string, unknown> }[] = []
let allowed = true

function fakeBrowser(startPath: string) {
  const document = Object.assign(new EventTarget(), { visibilityState: 'visible' as 'visible' | 'hidden' })
  const window = new EventTarget()
  const location = { pathname: startPath }
  const history = {
    pushState(_state: unknown, _unused: string, url: string) {
      location.pathname = url
    },
    replaceState(_state: unknown, _unused: string, url: string) {
      location.pathname = url
    },
  }
  vi.stubGlobal('document', document)
  vi.stubGlobal('window', window)
  vi.stubGlobal('location', location)
  vi.stubGlobal('history', history)
  vi.stubGlobal('navigator', {
    sendBeacon: (path: string, body: string) => {
      beacons.push({ path, body: JSON.parse(body) })
      return true
    },
  })
  vi.spyOn(performance, 'now').mockImplementation(() => clock)
  return { document, window, history }
}

/** The real page-name rule, as the banner script hands it over. */
async function startTracker(startPath: string) {
  const browser = fakeBrowser(startPath)
  const { pageNameOf } = await import('#app/modules/analytics/tracking.ts')
  const tracker = await import('./tracker.ts')
  tracker.startTracker({ allowed: () => allowed, pageNameOf: (path) => pageNameOf(path)?.name ?? null })
  return browser
}

const hide = (browser: ReturnType<typeof fakeBrowser>, state: 'hidden' | 'visible') => {
  ;(browser.document as { visibilityState: string }).visibilityState = state
  browser.document.dispatchEvent(new Event('visibilitychange'))
}

beforeEach(() => {
  vi.resetModules()
  clock = 0
  beacons.length = 0
  allowed = true
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('page views', () => {
  test('the first page is timed from the navigation’s start, not from when the chunk loaded', async () => {
    clock = 4_000 // the consent script and this chunk arrived 4 s after navigation start
    const browser = await startTracker('/producto/ABC-1')
    clock = 10_000
    browser.history.pushState(null, '', '/carrito')
    expect(beacons).toEqual([
      {
        path: '/api/analitica/vista',
        body: { page_title: '/producto/ABC-1', time_spent: 10, new_visit: true },
      },
    ])
  })

  test('hidden time is not counted; coming back adds seconds only, to the visit already sent', async () => {
    const browser = await startTracker('/')
    clock = 3_000
    hide(browser, 'hidden')
    clock = 60_000
    hide(browser, 'visible')
    clock = 65_000
    browser.window.dispatchEvent(new Event('pagehide'))
    expect(beacons.map((beacon) => beacon.body)).toEqual([
      { page_title: '/', time_spent: 3, new_visit: true },
      { page_title: '/', time_spent: 5, new_visit: false },
    ])
  })

  test('a navigation into /admin still reports the storefront page left, and nothing after', async () => {
    const browser = await startTracker('/carrito')
    clock = 7_000
    browser.history.pushState(null, '', '/admin/productos')
    clock = 30_000
    browser.window.dispatchEvent(new Event('pagehide'))
    expect(beacons.map((beacon) => beacon.body)).toEqual([
      { page_title: '/carrito', time_spent: 7, new_visit: true },
    ])
  })

  test('pages are sent by route pattern; a change of query string is the same page', async () => {
    const browser = await startTracker('/pago-simulado/pedido-123')
    clock = 2_000
    browser.history.pushState(null, '', '/pago-simulado/pedido-123')
    browser.history.replaceState(null, '', '/ruta-rara')
    expect(beacons.map((beacon) => beacon.body.page_title)).toEqual(['/pago-simulado/:id'])
    browser.window.dispatchEvent(new Event('pagehide'))
    expect(beacons.map((beacon) => beacon.body.page_title)).toEqual(['/pago-simulado/:id', 'otra'])
  })

  test('nothing is sent once consent is withdrawn', async () => {
    const browser = await startTracker('/')
    allowed = false
    clock = 5_000
    browser.history.pushState(null, '', '/carrito')
    expect(beacons).toEqual([])
  })
})

describe('clicks', () => {
  const click = (browser: ReturnType<typeof fakeBrowser>, name: string) => {
    const target = { closest: () => ({ getAttribute: () => name }) }
    const event = new Event('click')
    Object.defineProperty(event, 'target', { value: target })
    browser.document.dispatchEvent(event)
  }

  test('a click on a data-track element sends its name, never from /admin', async () => {
    const browser = await startTracker('/')
    click(browser, 'agregar-carrito')
    browser.history.pushState(null, '', '/ADMIN')
    beacons.length = 0
    click(browser, 'agregar-carrito')
    expect(beacons).toEqual([])
    browser.history.pushState(null, '', '/')
    beacons.length = 0
    click(browser, 'whatsapp')
    expect(beacons).toEqual([{ path: '/api/analitica/clic', body: { element_name: 'whatsapp' } }])
  })
})
