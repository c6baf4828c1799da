import { Suspense, useEffect, useId, type ReactNode } from 'react'

/**
 * Server-rendered content that React hydrates after the rest of the page, in its own short tasks:
 * on the first load React 18 leaves a Suspense boundary's server HTML in place and hydrates it at
 * idle priority, so a long page does not hydrate in one block that keeps a phone from responding.
 * A click inside it before then hydrates it at once, then reaches its handler. Nothing in it ever
 * suspends, so the fallback is never shown.
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  const section = useId()
  useEffect(() => {
    // On a first load the section hydrates after this; rendered on the client, it already has.
    if (!hydratedSections.has(section)) waitingSections.add(section)
    return () => {
      // A section gone before it hydrated (the shopper left the page) no longer holds the mark back.
      waitingSections.delete(section)
      hydratedSections.delete(section)
      // After the remount that StrictMode runs in the same task, not before it.
      queueMicrotask(markPageHydrated)
    }
  }, [section])
  return (
    <Suspense fallback={null}>
      <Hydrated section={section}>{children}</Hydrated>
    </Suspense>
  )
}

function Hydrated({ section, children }: { section: string; children: ReactNode }) {
  useEffect(() => {
    waitingSections.delete(section)
    hydratedSections.add(section)
    markPageHydrated()
  }, [section])
  return children
}

/**
 * Classes for content below the fold of phones and tablets that is left out of rendering there
 * until the page has hydrated, images included (`content-visibility: hidden`): a slow mobile link
 * gives its bandwidth to what the first view shows, above all its largest image. Without JavaScript
 * it is shown from the start, and when the scripts are late or fail, once the loader stops waiting
 * for them (SHOW_DEFERRED_ATTRIBUTE).
 */
export const HIDDEN_UNTIL_HYDRATED =
  'max-lg:[@media(scripting:enabled)]:[html:not([data-hydrated]):not([data-show-deferred])_&]:[content-visibility:hidden]'

const waitingSections = new Set<string>()
const hydratedSections = new Set<string>()
let rootHydrated = false

/**
 * Marks `<html data-hydrated="true">` once the root and every section deferred with `HydrateLater`
 * are interactive: `HIDDEN_UNTIL_HYDRATED` content shows then. A frame later it marks
 * `<html data-settled="true">`: content skipped while off screen until then (`content-visibility:
 * auto`) is laid out like the rest, so nothing moves when the shopper jumps to it. Browser tests
 * wait for that mark.
 */
export function markRootHydrated() {
  rootHydrated = true
  markPageHydrated()
}

function markPageHydrated() {
  const html = document.documentElement
  if (!rootHydrated || waitingSections.size > 0 || html.dataset.hydrated) return
  html.dataset.hydrated = 'true'
  // Shown content starts skipped while off screen: going straight from hidden to laid out, Chromium
  // would count the cards below the fold as a layout shift. So one frame of each, in that order.
  requestAnimationFrame(() => requestAnimationFrame(() => (html.dataset.settled = 'true')))
}
