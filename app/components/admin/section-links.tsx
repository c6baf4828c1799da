import { NavLink } from 'react-router'

export type SectionLink = { label: string; to: string; end?: boolean }

/** The header links above every page of an admin section (spec §2), the current one filled. */
export function SectionLinks({
  label,
  links,
  testId,
  className,
}: {
  label: string
  links: readonly SectionLink[]
  testId: string
  className?: string
}) {
  return (
    <nav aria-label={label} data-testid={testId} className={className}>
      <ul className="flex flex-wrap gap-2">
        {links.map(({ label, to, end }) => (
          <li key={label}>
            <NavLink
              to={to}
              end={end}
              className={({ isActive }) =>
                `inline-block rounded-full px-4 py-1.5 text-sm font-medium ${
                  isActive
                    ? 'bg-brand-600 text-white'
                    : 'border border-brand-200 bg-white text-brand-700 hover:bg-brand-50'
                }`
              }
            >
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
