import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type express from 'express'
import { GOOGLE_ISSUER, usesLocalProvider } from '#app/modules/auth/config.server.ts'
import { s3PublicBase } from '#app/modules/media/config.server.ts'
import type { Env } from '#app/utils/env.server.ts'

/**
 * The Content-Security-Policy of every answer. Scripts run only from the shop's own origin or with
 * the answer's nonce (React Router's route script and streamed data, React's own inline scripts),
 * never inline otherwise; the Meta pixel's origin joins only with a pixel id, Mercado Pago's only
 * with its access token, Wompi's checkout only with its keys, the media bucket's only with S3 storage. Nobody may frame the shop.
 */

/** A fresh nonce per answer: 16 random bytes, base64 (22 characters and `==`). */
export function newNonce(): string {
  return randomBytes(16).toString('base64')
}

/** The nonce of this answer's policy, set by `securityHeaders` before anything else renders. */
export function cspNonce(res: Pick<express.Response, 'locals'>): string {
  return (res.locals as { cspNonce?: string }).cspNonce ?? ''
}

/** Where Mercado Pago's checkout lives (init_point): the checkout form's redirect goes there. */
export const MERCADO_PAGO_CHECKOUT = 'https://*.mercadopago.com.co'
/** Where Meta's pixel script reports events (besides its script's own origin). */
export const META_REPORT_ORIGIN = 'https://www.facebook.com'

/** The whole policy's sources, per configuration; the nonce is put in per answer. */
export type PolicySources = {
  /** Development (Vite): its injected styles carry no nonce, its HMR socket has a port of its own. */
  dev: boolean
  pixelOrigins: { script: string; report: string[] } | null
  mercadoPago: boolean
  /** Wompi's Web Checkout origin (the checkout form's redirect goes there), only with Wompi's keys. */
  wompiOrigin: string | null
  mediaOrigin: string | null
  /** The sign-in provider's origin (its page is reached by the sign-in form's redirect), unless local. */
  signInOrigin: string | null
}

export function policySources(env: Env, { dev = false } = {}): PolicySources {
  const pixelScript = env.META_PIXEL_ID ? new URL(env.META_PIXEL_SCRIPT_URL).origin : null
  const mediaBase = s3PublicBase(env)
  return {
    dev,
    pixelOrigins: pixelScript
      ? { script: pixelScript, report: unique([pixelScript, META_REPORT_ORIGIN]) }
      : null,
    mercadoPago: Boolean(env.MP_ACCESS_TOKEN),
    wompiOrigin: env.WOMPI_PUBLIC_KEY ? new URL(env.WOMPI_CHECKOUT_URL).origin : null,
    mediaOrigin: mediaBase ? new URL(mediaBase).origin : null,
    signInOrigin: usesLocalProvider(env) ? null : new URL(env.OIDC_ISSUER ?? GOOGLE_ISSUER).origin,
  }
}

const unique = (values: string[]) => [...new Set(values)]

/** The policy's text for one answer. */
export function contentSecurityPolicy(sources: PolicySources, nonce: string): string {
  const { dev, pixelOrigins, mediaOrigin } = sources
  const pixel = pixelOrigins?.report ?? []
  const media = mediaOrigin ? [mediaOrigin] : []
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", `'nonce-${nonce}'`, ...(pixelOrigins ? [pixelOrigins.script] : [])],
    [
      'style-src',
      "'self'",
      // Vite's development styles are injected without a nonce (and a nonce would disable
      // 'unsafe-inline').
      ...(dev ? ["'unsafe-inline'"] : [`'nonce-${nonce}'`, ...lateStyleHashes()]),
    ],
    // Style attributes (React's `style`, e.g. the back office's chart bars) cannot carry a nonce.
    ['style-src-attr', "'unsafe-inline'"],
    // blob: the back office's previews of chosen files; data: small images inside stylesheets.
    ['img-src', "'self'", 'data:', 'blob:', ...media, ...pixel],
    ['media-src', "'self'", 'blob:', ...media],
    ['font-src', "'self'", 'data:'],
    // Development: Vite's HMR socket listens on a port of its own.
    ['connect-src', "'self'", ...pixel, ...(dev ? ['ws:', 'wss:'] : [])],
    [
      'form-action',
      "'self'",
      ...(sources.signInOrigin ? [sources.signInOrigin] : []),
      ...(sources.mercadoPago ? [MERCADO_PAGO_CHECKOUT] : []),
      ...(sources.wompiOrigin ? [sources.wompiOrigin] : []),
    ],
    ['frame-src', "'none'"],
    ['frame-ancestors', "'none'"],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
  ]
  return directives.map((directive) => directive.join(' ')).join('; ')
}

let styleHashes: string[] | undefined

/**
 * Sonner (the toasts, loaded with the first one) adds its stylesheet as a `<style>` of its own,
 * without a nonce: its text's hash lets it in (read from the installed package, so an update keeps
 * matching), and so does the empty text the element holds for a moment before the stylesheet is
 * put in it.
 */
export function lateStyleHashes(): string[] {
  if (styleHashes) return styleHashes
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  styleHashes = [hash('')]
  try {
    const source = fs.readFileSync(createRequire(import.meta.url).resolve('sonner'), 'utf8')
    const literal = source.match(/__insertCSS\(("(?:[^"\\]|\\.)*")\)/)?.[1]
    if (literal) styleHashes.push(hash(JSON.parse(literal) as string))
  } catch {
    // Without the package the toasts are unstyled, nothing more: the page itself is not affected.
  }
  return styleHashes
}

/** Sets the policy on an answer with a fresh nonce, kept in `res.locals` for the page to use. */
export function setContentSecurityPolicy(sources: PolicySources): express.RequestHandler {
  return (_req, res, next) => {
    const nonce = newNonce()
    res.locals.cspNonce = nonce
    res.setHeader('Content-Security-Policy', contentSecurityPolicy(sources, nonce))
    keepStoredPolicyOn304(res)
    next()
  }
}

/**
 * A 304 tells the browser to reuse the page it keeps, whose inline scripts carry that page's
 * nonce; a new policy with it would replace the kept one and block them. So a 304 carries none.
 */
function keepStoredPolicyOn304(res: express.Response) {
  const writeHead = res.writeHead
  res.writeHead = function (this: express.Response, ...args: Parameters<typeof writeHead>) {
    if ((typeof args[0] === 'number' ? args[0] : this.statusCode) === 304)
      this.removeHeader('Content-Security-Policy')
    return writeHead.apply(this, args)
  } as typeof writeHead
}
