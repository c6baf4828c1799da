import { StringDecoder } from 'node:string_decoder'
import { Transform, type TransformCallback } from 'node:stream'
import { SHOW_DEFERRED_ATTRIBUTE } from './deferred-content.ts'

/**
 * The page's JavaScript starts downloading once the page has loaded (its images painted), not while
 * the HTML is parsed: on a slow phone link React Router's modulepreload links and route imports
 * (over 100 KB gzip) took the bandwidth from the largest image, and the first paint and largest
 * paint waited for them (Lighthouse FCP and LCP). Everything on the first view is server-drawn
 * and works without JavaScript, so only hydration starts later.
 *
 * React Router writes `<link rel="modulepreload">` tags and one inline module script, at the end of
 * the shell, that imports the matched route modules and then the client entry. The links are made
 * inert (an unknown `rel`, which browsers ignore) and the script waits for the window's `load` (at
 * most LOAD_WAIT_MS) and for the first view to be drawn, then adds working links to `<head>` and
 * imports the same modules, in the same order. Its nonce stays, so a script-src nonce policy keeps working. A script in another shape is
 * left alone: the page then loads its scripts as React Router wrote them.
 *
 * Hydration is unaffected: the inert links stay where React expects its elements, and React Router
 * marks both its links and its scripts to accept other attributes or text than it rendered.
 */
export const LOAD_WAIT_MS = 3000
/** At most this long for the first view to be drawn after load (a background tab draws nothing). */
export const FRAME_WAIT_MS = 500
/**
 * Content held back until hydration (`HIDDEN_UNTIL_HYDRATED`) shows after this long whatever
 * happens: a script that fails to load on a flaky link must not leave it hidden.
 */
export const SHOW_DEFERRED_AFTER_MS = 10_000

const ROUTE_SCRIPT =
  /<script\b([^>]*\btype="module"[^>]*)>((?:(?!<\/script>)[\s\S])*?window\.__reactRouterRouteModules[\s\S]*?)<\/script>/
const MODULE_PRELOAD = /<link rel="modulepreload"( href="([^"]+)"[^>]*\/>)/g
/** What a deferred modulepreload link becomes: browsers ignore a `rel` they do not know. */
export const INERT_MODULE_PRELOAD = 'vitrina-deferred-modulepreload'
const STATIC_IMPORT = /^\s*import\s+(?:\*\s+as\s+([\w$]+)\s+from\s+)?("[^"]+");?[ \t]*$/gm

/** The deferred form of React Router's route script, or null when it is not in the shape expected. */
export function deferRouteScript(body: string, preloads: string[]): string | null {
  const imports = [...body.matchAll(STATIC_IMPORT)].map(([, name, specifier]) => ({ name, specifier }))
  const rest = body.replace(STATIC_IMPORT, '')
  // Anything else importing statically would still load at once: leave such a script alone.
  if (!imports.length || /^\s*import\s/m.test(rest)) return null
  return [
    `setTimeout(() => document.documentElement.setAttribute("${SHOW_DEFERRED_ATTRIBUTE}", ""), ${SHOW_DEFERRED_AFTER_MS});`,
    `await new Promise((go) => { if (document.readyState === "complete") go(); else { addEventListener("load", go, { once: true }); setTimeout(go, ${LOAD_WAIT_MS}); } });`,
    // On a fast link a page can load before it is painted: the first view's priority images (its
    // largest paint) are decoded and drawn first.
    `await new Promise((go) => { Promise.all([...document.querySelectorAll('img[fetchpriority="high"]')].map((img) => img.decode().catch(() => {}))).then(() => requestAnimationFrame(() => setTimeout(go))); setTimeout(go, ${FRAME_WAIT_MS}); });`,
    `for (const href of ${JSON.stringify(preloads)}) document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));`,
    // One after the other, as static imports run (a side-effect import such as Vite's HMR runtime
    // first); the links above already fetch them all at once.
    ...imports.map(({ name, specifier }) =>
      name ? `const ${name} = await import(${specifier});` : `await import(${specifier});`,
    ),
    rest,
  ].join('\n')
}

/** Rewrites one piece of HTML holding React Router's route script; anything else is returned as is. */
export function deferScriptsInHtml(html: string): string {
  const [, attributes, body] = html.match(ROUTE_SCRIPT) ?? []
  if (attributes === undefined || body === undefined) return html
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map(([, , href = '']) => href.replaceAll('&amp;', '&'))
  const deferred = deferRouteScript(body, preloads)
  if (deferred === null) return html
  // Functions as replacements: `$` in the script must not be read as a pattern.
  return html
    .replace(ROUTE_SCRIPT, () => `<script${attributes}>${deferred}</script>`)
    .replace(MODULE_PRELOAD, (_link, rest: string) => `<link rel="${INERT_MODULE_PRELOAD}"${rest}`)
}

/**
 * The stream form of deferScriptsInHtml. The document is held back until React Router's route
 * script has been written whole (it ends the shell, so little waits), then rewritten and sent; the
 * rest (streamed data) passes through as it comes. A document without that script is sent
 * unchanged when it ends.
 */
export class DeferScripts extends Transform {
  private decoder = new StringDecoder('utf8')
  private held: string | null = ''

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    const text = this.decoder.write(chunk)
    if (this.held === null) {
      if (text) this.push(Buffer.from(text))
    } else {
      this.held += text
      if (ROUTE_SCRIPT.test(this.held)) {
        this.push(Buffer.from(deferScriptsInHtml(this.held)))
        this.held = null
      }
    }
    callback()
  }

  override _flush(callback: TransformCallback) {
    const rest = (this.held ?? '') + this.decoder.end()
    if (rest) this.push(Buffer.from(rest))
    callback()
  }
}
