import { useEffect, useState } from 'react'
import { useLocation } from 'react-router'
import { CONSENT_CHANGE_EVENT, readConsent, STAFF_DEVICE_COOKIE } from '#app/modules/analytics/consent.ts'
import { holdAdEvents, rememberAdLanding, trackAdEvent } from '#app/modules/marketing/ad-events.ts'
import type * as PixelModuleNamespace from '#app/modules/marketing/pixel.ts'

type PixelModule = typeof PixelModuleNamespace

export type PixelSettings = { id: string; scriptUrl: string } | null

let loaded: Promise<PixelModule> | null = null

function allowed(): boolean {
  if (window.location.pathname.startsWith('/admin')) return false
  if (new RegExp(`(^|;\\s*)${STAFF_DEVICE_COOKIE}=`).test(document.cookie)) return false
  return readConsent(document.cookie)?.advertising === true
}

/**
 * Loads the Meta Pixel (a dynamic import) only with a pixel id, advertising consent and no staff
 * cookie, also right after the shopper accepts; stops it if consent is withdrawn. Sends a PageView
 * per page. Renders nothing.
 */
export function MetaPixel({ pixel }: { pixel: PixelSettings }) {
  const { pathname, search } = useLocation()
  const [running, setRunning] = useState(false)

  const id = pixel?.id
  const scriptUrl = pixel?.scriptUrl
  useEffect(() => {
    if (!id || !scriptUrl) return
    rememberAdLanding()
    const decide = () => {
      if (allowed()) {
        holdAdEvents()
        loaded ??= import('#app/modules/marketing/pixel.ts')
        void loaded.then((module) => {
          if (!allowed()) return
          module.startPixel({ id, scriptUrl })
          setRunning(true)
        })
      } else if (loaded) {
        void loaded.then((module) => module.stopPixel())
        setRunning(false)
      }
    }
    decide()
    window.addEventListener(CONSENT_CHANGE_EVENT, decide)
    return () => window.removeEventListener(CONSENT_CHANGE_EVENT, decide)
  }, [id, scriptUrl])

  useEffect(() => {
    if (running) trackAdEvent('PageView')
  }, [running, pathname, search])

  return null
}
