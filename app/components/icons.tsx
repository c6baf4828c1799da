import type { SVGProps } from 'react'

/**
 * The storefront's icons, drawn here as plain 24×24 strokes (ADR 0004): a few hundred bytes instead
 * of an icon library's runtime on every first visit. The back office keeps lucide-react.
 */
type IconProps = SVGProps<SVGSVGElement>

function icon(d: string) {
  return function Icon(props: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        {...props}
      >
        <path d={d} />
      </svg>
    )
  }
}

const circle = (cx: number, cy: number, r: number) =>
  `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`

export const ChevronDown = icon('M6 9l6 6 6-6')
export const ChevronLeft = icon('M15 18l-6-6 6-6')
export const ChevronRight = icon('M9 18l6-6-6-6')
export const Plus = icon('M12 5v14M5 12h14')
export const Minus = icon('M5 12h14')
export const Search = icon(`${circle(11, 11, 7)}M20 20l-4-4`)
export const ShoppingBag = icon('M6 7h12l1 14H5L6 7zM9 10V6a3 3 0 0 1 6 0v4')
export const MessageCircle = icon('M4 20l1.4-4.2A8.5 8.5 0 1 1 8.2 18.6L4 20z')
export const Play = icon('M8 5l11 7-11 7V5z')
export const Truck = icon(`M2 6h12v11H2zM14 10h4l4 4v3h-8${circle(6.5, 18.5, 1.8)}${circle(17.5, 18.5, 1.8)}`)
export const Zap = icon('M13 2L4 14h7l-1 8 9-12h-7l1-8z')
export const Trash = icon('M4 7h16M9 7V4h6v3M6 7l1 14h10l1-14M10 11v6M14 11v6')
export const CreditCard = icon('M3 6h18v12H3zM3 10h18M7 15h3')
export const ShieldCheck = icon('M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6l8-3zM9 12l2 2 4-4')
export const CheckCircle = icon(`${circle(12, 12, 9)}M8 12l3 3 5-6`)
export const Clock = icon(`${circle(12, 12, 9)}M12 7v5l3 2`)
export const XCircle = icon(`${circle(12, 12, 9)}M9 9l6 6M15 9l-6 6`)

/**
 * The shop's mark (public/favicon.svg, kept in step) drawn inline: the header shows it without a
 * request of its own competing with the first view's images.
 */
export function ShopMark(props: IconProps) {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" aria-hidden="true" {...props}>
      <rect width="64" height="64" rx="14" fill="#9c5d3b" />
      <path d="M16 20 Q32 52 48 20" stroke="#fff" strokeWidth="4" fill="none" />
      <circle cx="32" cy="40" r="7" fill="#f8e6d6" />
    </svg>
  )
}
