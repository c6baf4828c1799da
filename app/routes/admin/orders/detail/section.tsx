import type { ReactNode } from 'react'

/** The card each part of the order sits on. */
export function Section({
  title,
  children,
  testId,
}: {
  title: string
  children: ReactNode
  testId?: string
}) {
  return (
    <section className="rounded-xl border border-brand-100 bg-white p-4 shadow-sm" data-testid={testId}>
      <h2 className="mb-3 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  )
}
