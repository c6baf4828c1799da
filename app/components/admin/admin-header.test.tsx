import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, test } from 'vitest'
import { adminRoutes } from '#tests/admin-walk.ts'
import { ADMIN_HELP_PATH } from '#app/utils/admin-paths.ts'
import { AdminHeader, HELP_PATH_RULES, helpHrefFor } from './admin-header.tsx'
import { guideAnchors, HELP_GUIDE } from './help-guide.ts'
import { ADMIN_MENU } from './menu.ts'

/** The header's "?": which part of the guide each back-office page links to. */

const anchorOf = (href: string) => (href.includes('#') ? href.slice(href.indexOf('#') + 1) : null)

describe('helpHrefFor', () => {
  test.each([
    ['/admin', '/admin/ayuda#inicio'],
    ['/admin/', '/admin/ayuda#inicio'],
    ['/admin/productos', '/admin/ayuda#productos'],
    ['/admin/productos/', '/admin/ayuda#productos'],
    ['/admin/productos/crear', '/admin/ayuda#productos'],
    ['/admin/productos/editar/COL-ABC-12345678', '/admin/ayuda#productos'],
    ['/admin/productos/entrada', '/admin/ayuda#entradas-y-salidas'],
    ['/admin/productos/salida', '/admin/ayuda#entradas-y-salidas'],
    ['/admin/productos/movimientos/COL-ABC-12345678', '/admin/ayuda#costo-promedio'],
    ['/admin/productos/movimientos/COL-ABC-12345678/csv', '/admin/ayuda#costo-promedio'],
    ['/admin/pedidos', '/admin/ayuda#pedidos'],
    ['/admin/pedidos/pendientes', '/admin/ayuda#pedidos'],
    ['/admin/pedidos/detalle/abc', '/admin/ayuda#pedidos'],
    ['/admin/pedidos/guias', '/admin/ayuda#pedidos'],
    ['/admin/usuarios', '/admin/ayuda#usuarios'],
    ['/admin/ventas', '/admin/ayuda#ventas'],
    ['/admin/ventas/pagos', '/admin/ayuda#ventas'],
    ['/admin/reportes', '/admin/ayuda#reportes'],
    ['/admin/configuraciones', '/admin/ayuda#configuraciones'],
    ['/admin/canales', '/admin/ayuda#canales'],
    ['/admin/categorias/editar/3', '/admin/ayuda#categorias'],
    ['/admin/descuentos/nueva', '/admin/ayuda#descuentos'],
    ['/admin/marketing', '/admin/ayuda#marketing'],
    ['/admin/mensajes', '/admin/ayuda#mensajes'],
    ['/admin/perfil', '/admin/ayuda#perfil'],
    ['/admin/seguridad', '/admin/ayuda#seguridad'],
  ])('%s → %s', (path, href) => {
    expect(helpHrefFor(path)).toBe(href)
  })

  test.each([
    '/admin/ayuda',
    '/admin/no-existe',
    // A path that only starts like a section's is not that section.
    '/admin/productosx',
    '/admin/ventasx/pagos',
    '/',
    '/carrito',
    '/administracion',
  ])('%s → the guide without an anchor', (path) => {
    expect(helpHrefFor(path)).toBe(ADMIN_HELP_PATH)
  })

  test('every anchor a rule can give is drawn by the guide', () => {
    const drawn = new Set(guideAnchors())
    for (const { anchor } of HELP_PATH_RULES) expect(drawn, anchor).toContain(anchor)
    expect(drawn).toContain(anchorOf(helpHrefFor('/admin')))
  })

  test('every back-office page of app/routes.ts links to a part of the guide that exists', () => {
    const drawn = new Set(guideAnchors())
    expect(adminRoutes.length).toBeGreaterThan(20)
    for (const route of adminRoutes) {
      const href = helpHrefFor(route.url)
      const anchor = anchorOf(href)
      if (route.fullPath === 'admin/ayuda' || route.fullPath === 'admin/*') {
        expect(href, route.fullPath).toBe(ADMIN_HELP_PATH)
      } else {
        // A new page without its part of the guide fails here: add a rule (and the text).
        expect(anchor, route.fullPath).not.toBeNull()
        expect(drawn, route.fullPath).toContain(anchor)
      }
    }
  })

  test("each menu entry leads to the guide's part with the entry's name", () => {
    const titles = new Map(HELP_GUIDE.map((section) => [section.id as string, section.title]))
    const entries = ADMIN_MENU.filter((entry) => entry.to && entry.to !== ADMIN_HELP_PATH)
    expect(entries.length).toBeGreaterThan(10)
    for (const entry of entries) {
      const anchor = anchorOf(helpHrefFor(entry.to!))
      expect(titles.get(anchor ?? ''), entry.label).toBe(entry.label)
    }
  })
})

describe('the header', () => {
  /** The header as the server renders it at `path` (no script has run). */
  function renderAt(path: string) {
    const Header = () => (
      <AdminHeader
        user={{ email: 'ana@example.com', displayName: 'Ana', pictureUrl: null }}
        menuOpen={false}
        onToggleMenu={() => {}}
      />
    )
    const Stub = createRoutesStub([{ path: '*', Component: Header }])
    return renderToString(<Stub initialEntries={[path]} />)
  }

  const helpLink = (html: string) =>
    html.match(/<a [^>]*aria-label="Ayuda de esta sección"[^>]*>.*?<\/a>/)?.[0] ?? null

  test.each([
    ['/admin', '/admin/ayuda#inicio'],
    ['/admin/productos/entrada', '/admin/ayuda#entradas-y-salidas'],
    ['/admin/pedidos/detalle/abc', '/admin/ayuda#pedidos'],
    ['/admin/ayuda', '/admin/ayuda'],
  ])('on %s the "?" is a plain link to %s', (path, href) => {
    const link = helpLink(renderAt(path))
    expect(link).not.toBeNull()
    expect(link).toContain(`href="${href}"`)
    expect(link).toContain('data-testid="admin-help-link"')
    // The visible "?" is hidden from screen readers: the link's name is its label.
    expect(link).toMatch(/<span aria-hidden="true">\?<\/span>/)
  })

  test('keeps the greeting', () => {
    expect(renderAt('/admin')).toMatch(/data-testid="admin-greeting"[^>]*>Hola, <strong>Ana<\/strong>/)
  })
})
