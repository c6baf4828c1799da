import { useEffect } from 'react'
import { toast } from '#app/components/toast.tsx'
import { readActionAnswer, type ActionAnswer } from '#app/utils/action-answer.ts'

/**
 * A form's outcome: shown inline (stays on screen, read by screen readers) and as a toast, which is
 * how the original's alerts appeared. `tone` colours both.
 */
export function FormMessage({
  message,
  tone,
  nonce,
  link,
}: {
  message: string | null | undefined
  tone: 'success' | 'error'
  /** Changes on every submission, so the same message twice shows two toasts. */
  nonce?: unknown
  /** A way out shown after the message (e.g. sign in again); a plain link, so it works anywhere. */
  link?: { href: string; label: string } | null
}) {
  useEffect(() => {
    if (message) toast[tone](message)
  }, [message, tone, nonce])
  if (!message) return null
  const text = (
    <p
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid="form-message"
      data-tone={tone}
      className={`rounded-lg border px-4 py-3 text-sm font-medium ${
        tone === 'error'
          ? 'border-red-200 bg-red-50 text-red-800'
          : 'border-green-200 bg-green-50 text-green-800'
      }`}
    >
      {message}
    </p>
  )
  if (!link) return text
  return (
    <>
      {text}
      <p className="text-sm">
        <a href={link.href} className="font-medium text-brand-700 underline" data-testid="form-message-link">
          {link.label}
        </a>
      </p>
    </>
  )
}

/** An action's answer (`actionData`, `fetcher.data`, or one the page made) as a `FormMessage`. */
export function ActionMessage({ answer }: { answer: ActionAnswer | null | undefined }) {
  const { message, tone, nonce } = readActionAnswer(answer)
  return <FormMessage message={message} tone={tone} nonce={nonce} />
}

export const inputClass =
  'w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-base focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200'
export const labelClass = 'mb-1 block text-sm font-medium text-gray-700'
export const primaryButtonClass =
  'rounded-full bg-brand-600 px-5 py-2 font-medium text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60'
export const secondaryButtonClass =
  'rounded-full border border-brand-200 bg-white px-4 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50'
export const dangerButtonClass =
  'rounded-full border border-red-200 bg-white px-4 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50'
