import { createContext, useContext } from 'react'

/**
 * The whole stylesheet (app.css, about 8 KB gzip) goes inline in every document instead of a
 * render-blocking `<link>`: the first paint waits for no other request (Lighthouse FCP on a slow
 * link). Only the server has the text (entry.server.tsx provides it, so it never enters the client
 * JavaScript); the browser keeps what the server wrote.
 */
export const InlineStylesContext = createContext<string | null>(null)

const STYLE_ID = 'app-styles'
let fromDocument: string | undefined

export function InlineStyles({ nonce }: { nonce: string | undefined }) {
  const serverCss = useContext(InlineStylesContext)
  // Read once from the server's element before React could replace it (a root rendered anew after
  // a failed hydration must not come back without styles).
  const css =
    serverCss ??
    (fromDocument ??=
      typeof document === 'undefined' ? '' : (document.getElementById(STYLE_ID)?.textContent ?? ''))
  // Browsers hide a nonce from the DOM once applied: React 18 would report the empty one it reads.
  return (
    <style id={STYLE_ID} nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: css }} />
  )
}
