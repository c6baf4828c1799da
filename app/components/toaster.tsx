import { useEffect } from 'react'
import { toast, Toaster } from 'sonner'

export const TOAST_DURATION_MS = 3000

let markReady: () => void = () => {}
const ready = new Promise<void>((resolve) => (markReady = resolve))

/** Shows a toast once the toaster below is mounted (a toast sent before it would be lost). */
export async function showToast(tone: 'success' | 'error' | 'warning' | 'info', message: string) {
  await ready
  toast[tone](message)
}

export default function SonnerToaster() {
  useEffect(() => markReady(), [])
  return (
    <Toaster
      position="top-center"
      duration={TOAST_DURATION_MS}
      toastOptions={{
        classNames: {
          success: '!bg-green-600 !text-white !border-green-700',
          error: '!bg-red-600 !text-white !border-red-700',
          warning: '!bg-amber-500 !text-ink !border-amber-600',
          info: '!bg-teal-600 !text-white !border-teal-700',
        },
      }}
    />
  )
}
