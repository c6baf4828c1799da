import { createContext as createReactContext, useContext } from 'react'
import { createContext, type RouterContextProvider } from 'react-router'

/**
 * The nonce of this answer's Content-Security-Policy (server/content-security-policy.ts): a fresh
 * random value per request, set by the server's security headers and handed to React Router
 * through the router context, so every inline script and style of the page may run.
 */
export const cspNonceContext = createContext<string | null>(null)

export function cspNonceOf(context: Readonly<RouterContextProvider>): string | undefined {
  return context.get(cspNonceContext) ?? undefined
}

/**
 * A page kept and served again (the page cache) carries the nonce it was rendered with; the answer
 * must carry its own request's. The nonce is random and long, so replacing every occurrence of the
 * old one changes nothing else.
 */
export function withNonce(html: string, renderedWith: string, current: string): string {
  return renderedWith && renderedWith !== current ? html.replaceAll(renderedWith, current) : html
}

/** The nonce for the document's elements: entry.server.tsx provides it while rendering. */
export const NonceContext = createReactContext<string | undefined>(undefined)

let fromDocument: string | undefined

/**
 * The page's nonce: on the server the request's; in the browser the one the server wrote (an
 * element's `nonce` property keeps it while the attribute reads empty), so hydration matches and
 * a style element React draws anew still carries it.
 */
export function useNonce(): string | undefined {
  const serverNonce = useContext(NonceContext)
  if (serverNonce !== undefined || typeof document === 'undefined') return serverNonce
  fromDocument ??= (document.querySelector('[nonce]') as HTMLElement | null)?.nonce || undefined
  return fromDocument
}
