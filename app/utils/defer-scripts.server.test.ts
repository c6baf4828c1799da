import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { describe, expect, test } from 'vitest'
import {
  DeferScripts,
  deferScriptsInHtml,
  FRAME_WAIT_MS,
  INERT_MODULE_PRELOAD,
  LOAD_WAIT_MS,
  SHOW_DEFERRED_AFTER_MS,
} from './defer-scripts.server.ts'
import { SHOW_DEFERRED_ATTRIBUTE } from './deferred-content.ts'

/** The shape React Router 7 writes with React 18: modulepreload links, then one route script. */
const PAGE = [
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/>',
  '</head><body><main>Hola</main>',
  '<link rel="modulepreload" href="/assets/entry.client-A.js"/>',
  '<link rel="modulepreload" href="/assets/root-B.js"/><link rel="modulepreload" href="/assets/home-C.js"/>',
  '<script>window.__reactRouterContext = {};</script>',
  '<script nonce="n0" type="module" async="">;',
  'import * as route0 from "/assets/root-B.js";',
  'import * as route1 from "/assets/home-C.js";',
  '  window.__reactRouterManifest = { "a$b": "<x>" };',
  '  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};',
  '',
  'import("/assets/entry.client-A.js");</script>',
  '</body></html>',
].join('\n')

describe('deferScriptsInHtml', () => {
  const html = deferScriptsInHtml(PAGE)
  const script = html.match(/<script nonce="n0" type="module" async="">([\s\S]*?)<\/script>/)?.[1] ?? ''

  test('no modulepreload and no static import is left for the parser to fetch early', () => {
    expect(html).not.toContain('rel="modulepreload"')
    expect(script).not.toMatch(/^\s*import\s/m)
    expect(html).toContain('<main>Hola</main>')
    expect(html).toContain('<script>window.__reactRouterContext = {};</script>')
  })

  test('each link stays as an inert element where React will look for it when it hydrates', () => {
    expect(
      [...html.matchAll(/<link rel="([^"]+)" href="([^"]+)"\/>/g)].map(([, rel, href]) => [rel, href]),
    ).toEqual([
      [INERT_MODULE_PRELOAD, '/assets/entry.client-A.js'],
      [INERT_MODULE_PRELOAD, '/assets/root-B.js'],
      [INERT_MODULE_PRELOAD, '/assets/home-C.js'],
    ])
  })

  test('the script waits for load and the next frame (or their time limits), then preloads and imports the same modules in order', () => {
    const waits = script.indexOf('requestAnimationFrame(')
    expect(script.indexOf('addEventListener("load"')).toBeLessThan(waits)
    expect(script).toContain(`setTimeout(go, ${FRAME_WAIT_MS})`)
    const preloads = script.indexOf('["/assets/entry.client-A.js","/assets/root-B.js","/assets/home-C.js"]')
    const imports = script.indexOf(
      'const route0 = await import("/assets/root-B.js");\nconst route1 = await import("/assets/home-C.js");',
    )
    const entry = script.indexOf('import("/assets/entry.client-A.js")')
    expect(script).toContain(`setTimeout(go, ${LOAD_WAIT_MS})`)
    expect([waits, preloads, imports, entry].every((index) => index >= 0)).toBe(true)
    expect(waits < preloads && preloads < imports && imports < entry).toBe(true)
    // The rest is kept verbatim, `$` included.
    expect(script).toContain('window.__reactRouterManifest = { "a$b": "<x>" };')
    expect(script).toContain('window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};')
  })

  test('whatever happens to the scripts, content held back for hydration shows after a time limit', () => {
    expect(script.split('\n')[0]).toBe(
      `setTimeout(() => document.documentElement.setAttribute("${SHOW_DEFERRED_ATTRIBUTE}", ""), ${SHOW_DEFERRED_AFTER_MS});`,
    )
  })

  test('a script in another shape, or a piece of HTML without it, passes through untouched', () => {
    const other = PAGE.replace('import * as route0 from "/assets/root-B.js";', 'import { a } from "/x.js";')
    expect(deferScriptsInHtml(other)).toBe(other)
    const tail = '<script>window.__reactRouterContext.streamController.enqueue("[]")</script></body></html>'
    expect(deferScriptsInHtml(tail)).toBe(tail)
  })

  test('the deferred script is valid JavaScript for a module', async () => {
    // A module with top-level await: compiling it as an async function body is the closest check.
    const AsyncFunction = (async () => {}).constructor as new (body: string) => unknown
    expect(() => new AsyncFunction(script.replace(/import\(/g, 'load('))).not.toThrow()
  })
})

test('the stream holds the document until the route script is whole, then passes the rest on', async () => {
  // Split inside the route script and inside a two-byte character.
  const bytes = Buffer.from(PAGE.replace('<main>Hola</main>', '<main>Hola ñandú</main>'))
  const cut = bytes.indexOf('import * as route1')
  const accent = bytes.indexOf('ñ') + 1
  const pieces = [
    bytes.subarray(0, accent),
    bytes.subarray(accent, cut),
    bytes.subarray(cut),
    Buffer.from('<p>más</p>'),
  ]
  const out = await text(Readable.from(pieces).pipe(new DeferScripts()))
  expect(out).toBe(
    deferScriptsInHtml(PAGE.replace('<main>Hola</main>', '<main>Hola ñandú</main>')) + '<p>más</p>',
  )
  expect(out).not.toContain('rel="modulepreload"')
})

test('a document without the route script comes out unchanged', async () => {
  const page =
    '<!DOCTYPE html><html><head><link rel="modulepreload" href="/a.js"/></head><body>ñ</body></html>'
  const out = await text(
    Readable.from([Buffer.from(page.slice(0, 40)), Buffer.from(page.slice(40))]).pipe(new DeferScripts()),
  )
  expect(out).toBe(page)
})
