// The JavaScript a first visit to a page downloads before any lazy import: what `npm run bench`
// holds against the storefront's budget.
import zlib from 'node:zlib'

/** Every JS file a first visit to `pagePath` loads: scripts, modulepreloads, inline module imports
 * and, transitively, the static imports of those files. Sizes are gzipped with zlib (level 9) and,
 * as the server sends them to browsers that accept it, Brotli 11. */
export async function firstVisitJs(base, pagePath) {
  const answer = await fetch(new URL(pagePath, base))
  // A missing page would measure the not-found page's scripts instead.
  if (!answer.ok) throw new Error(`${pagePath} respondió ${answer.status}`)
  const html = await answer.text()
  const found = new Set()
  const add = (ref, from) => {
    if (/^(https?:)?\/\//.test(ref) && !ref.startsWith(base)) return
    const url = new URL(ref, from).href
    if (url.endsWith('.js') || url.endsWith('.mjs')) found.add(url)
  }
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const src = tag.match(/\bsrc="([^"]+)"/)?.[1]
    if (tag.startsWith('<script') && src) add(src, new URL(pagePath, base))
    if (/rel="modulepreload"/.test(tag)) add(tag.match(/\bhref="([^"]+)"/)[1], new URL(pagePath, base))
  }
  for (const [, body] of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const [, ref] of body.matchAll(/\bimport\s*(?:\(\s*)?(?:[^'"();]*?\bfrom\s*)?["']([^"']+)["']/g)) {
      add(ref, new URL(pagePath, base))
    }
  }
  const files = []
  const queue = [...found]
  while (queue.length) {
    const url = queue.shift()
    const body = Buffer.from(await (await fetch(url)).arrayBuffer())
    files.push({
      url,
      raw: body.length,
      gzip: zlib.gzipSync(body, { level: 9 }).length,
      brotli: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    })
    // Static imports only: what a lazy import() pulls in is not part of the first visit.
    for (const [, ref] of body.toString('utf8').matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.m?js)["']/g)) {
      const next = new URL(ref, url).href
      if (!found.has(next)) {
        found.add(next)
        queue.push(next)
      }
    }
  }
  files.sort((a, b) => b.gzip - a.gzip)
  return files
}
