import { lazy, Suspense, useEffect, useState } from 'react'
import { onCartNotice } from '#app/modules/cart/cart-store.ts'

/**
 * Toasts (spec §8: 3 s; success green, error red, warning amber, info teal). Only this small
 * module is in the first-visit JavaScript: sonner and its setup (toaster.tsx) load with the first
 * toast, so a visit that shows none never downloads them.
 */
type Tone = 'success' | 'error' | 'warning' | 'info'

const loadToaster = () => import('./toaster.tsx')
let mountNow: () => void = () => {}

function show(tone: Tone, message: string) {
  mountNow()
  void loadToaster().then((module) => module.showToast(tone, message))
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  warning: (message: string) => show('warning', message),
  info: (message: string) => show('info', message),
}

const LazyToaster = lazy(loadToaster)

export function Toaster() {
  const [mounted, setMounted] = useState(false)
  // What the cart says about each change is shown here: the cart store knows nothing of toasts.
  useEffect(() => onCartNotice((notice) => toast[notice.tone](notice.message)), [])
  useEffect(() => {
    mountNow = () => setMounted(true)
  }, [])
  if (!mounted) return null
  return (
    <Suspense fallback={null}>
      <LazyToaster />
    </Suspense>
  )
}
