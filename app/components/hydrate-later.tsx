import { Suspense, useEffect, type ReactNode } from 'react'

/**
 * Server-rendered content that React hydrates after the rest of the page, in its own short tasks:
 * on the first load React 18 leaves a Suspense boundary's server HTML in place and hydrates it at
 * idle priority, so a long page does not hydrate in one block that keeps a phone from responding.
 * A click inside it before then hydrates it at once and is replayed. Nothing in it ever suspends,
 * so the fallback is never shown.
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  useEffect(() => {
    laterSections.expected++
  }, [])
  return (
    <Suspense fallback={null}>
      <Hydrated>{children}</Hydrated>
    </Suspense>
  )
}

function Hydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    laterSections.hydrated++
    markPageHydrated()
  }, [])
  return children
}

/**
 * Classes for content below the fold that is left out of rendering until the page has hydrated,
 * images included (`content-visibility: hidden`): a slow link gives its bandwidth to what the first
 * view shows, above all its largest image. Without JavaScript it is shown from the start.
 */
export const HIDDEN_UNTIL_HYDRATED =
  '[@media(scripting:enabled)]:[html:not([data-hydrated])_&]:[content-visibility:hidden]'

// Effects run children first: a section's outer effect counts it before the root's effect asks.
const laterSections = { expected: 0, hydrated: 0 }
let rootHydrated = false

/**
 * Marks `<html data-hydrated="true">` once the root and every section deferred with `HydrateLater`
 * are interactive: `HIDDEN_UNTIL_HYDRATED` content shows then, and browser tests wait for it.
 */
export function markRootHydrated() {
  rootHydrated = true
  markPageHydrated()
}

function markPageHydrated() {
  if (rootHydrated && laterSections.hydrated >= laterSections.expected) {
    document.documentElement.dataset.hydrated = 'true'
  }
}
