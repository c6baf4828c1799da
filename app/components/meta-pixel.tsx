import { useEffect } from 'react'
import type { AdEventWindow } from '#app/modules/marketing/ad-events.ts'
// A URL only: the pixel's own bundle, loaded on demand (see pixel.ts for why not `import()`).
import pixelBundleUrl from '#app/modules/marketing/pixel.ts?worker&url'

export type PixelSettings = { id: string; scriptUrl: string } | null

/**
 * CONSENT_CHANGE_EVENT of analytics/consent.ts, written out: importing it would put that whole
 * module (a chunk shared with the lazy consent script) in the first visit. meta-pixel.test.ts
 * checks the two stay equal.
 */
export const CONSENT_CHANGE = 'vitrina:consent'

/**
 * Adds the Meta Pixel's script (`pixel.ts`, told the pixel id and Meta's script URL in its query)
 * only with a pixel id and advertising accepted: at once, or as soon as the shopper accepts. That
 * script checks the whole choice (policy version, staff cookie, `/admin`) before anything reaches
 * Meta, and follows later changes itself. Renders nothing: this, `trackAdEvent` and its AddToCart
 * call are all the first visit carries of the pixel (its JavaScript is at its budget).
 */
export function MetaPixel({ pixel }: { pixel: PixelSettings }) {
  const src = pixel && `${pixelBundleUrl}?${new URLSearchParams(pixel)}`
  useEffect(() => {
    if (!src) return
    const load = () => {
      const w = window as AdEventWindow
      // A quick look for the consent cookie's `|m=1` (advertising accepted); the script then reads
      // the whole choice with readConsent.
      if (w.vitrinaAdEvents || !/(\||%7C)m(=|%3D)1/i.test(document.cookie)) return
      // Events wait here until the script runs.
      w.vitrinaAdEvents = []
      document.head.append(Object.assign(document.createElement('script'), { src }))
    }
    load()
    // Kept for the page's life: the store layout never unmounts, and `load` runs at most once.
    addEventListener(CONSENT_CHANGE, load)
  }, [src])
  return null
}
