import { useEffect, useRef } from 'react'
import type { ProductCard as Card } from '#app/modules/catalog/catalog.server.ts'
import { ProductCard } from './product-card.tsx'

export function ProductGrid({ products, priorityCount = 0 }: { products: Card[]; priorityCount?: number }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
      {products.map((product, index) => (
        <li key={product.sku} className="flex">
          <ProductCard product={product} priority={index < priorityCount} />
        </li>
      ))}
    </ul>
  )
}

/**
 * Loads the next page when it scrolls into view. It is a plain link underneath, so without
 * JavaScript it still reaches more products.
 */
export function Sentinel({ href, onVisible, busy }: { href: string; onVisible: () => void; busy: boolean }) {
  const ref = useRef<HTMLAnchorElement>(null)
  const latest = useRef(onVisible)
  latest.current = onVisible
  useEffect(() => {
    const element = ref.current
    if (!element || busy) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current()
      },
      { rootMargin: '400px 0px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
    // A fresh observer for every new page: if the sentinel is still in view after a load, its
    // first report loads the next page, as scrolling it into view would.
  }, [busy, href])
  return (
    <a
      ref={ref}
      href={href}
      data-testid="sentinel"
      className="block py-6 text-center text-sm text-gray-500"
      onClick={(event) => {
        event.preventDefault()
        onVisible()
      }}
    >
      {busy ? 'Cargando…' : 'Ver más productos'}
    </a>
  )
}
