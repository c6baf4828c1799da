import { renderToString } from 'react-dom/server'
import { createRoutesStub, RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import {
  AVERAGE_COST_EXAMPLE,
  guideAnchors,
  HELP_ANCHORS,
  HELP_GUIDE,
  HELP_SECTIONS,
  HELP_TOPICS,
} from '#app/components/admin/help-guide.ts'
import { signedInAdminContext, type SignedInAdmin } from '#app/modules/auth/guard.server.ts'
import { ROLE_LABELS, type Role } from '#app/modules/auth/roles.ts'
import { averageCostAfterEntry } from '#app/modules/inventory/average-cost.ts'
import { formatCOP } from '#app/utils/money.ts'
import * as help from './help.tsx'

/** "Ayuda": the owner's guide, drawn on the server like every admin page. */

function renderFor(role: Role) {
  const loaderData = { role }
  const Page = help.default as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'page', path: '/admin/ayuda', Component: Page, loader: () => loaderData },
  ])
  return renderToString(
    <Stub initialEntries={['/admin/ayuda']} hydrationData={{ loaderData: { page: loaderData } }} />,
  )
}

/** The page's text without tags, entities read back, spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')

test('the loader gives the signed-in admin’s role, and nothing else', async () => {
  const context = new RouterContextProvider()
  context.set(signedInAdminContext, { role: 'warehouse' } as SignedInAdmin)
  const request = new Request('http://127.0.0.1/admin/ayuda')
  expect(await help.loader({ context, request, params: {} } as never)).toEqual({ role: 'warehouse' })
})

describe('the page', () => {
  const html = renderFor('owner')

  test('is titled "Ayuda"', () => {
    expect(html).toMatch(/<h1[^>]*>Ayuda<\/h1>/)
  })

  test('draws every part, in the menu’s order then the day-to-day topics, each with its anchor', () => {
    const drawn = [...html.matchAll(/<section id="([^"]+)"/g)].map((match) => match[1])
    expect(drawn).toEqual(HELP_GUIDE.map((section) => section.id))
    expect(HELP_SECTIONS.map((section) => section.title)).toEqual([
      'Inicio',
      'Productos',
      'Gestión de pedidos',
      'Usuarios',
      'Ventas',
      'Reportes',
      'Configuraciones',
      'Canales',
      'Categorías',
      'Descuentos y Promociones',
      'Marketing',
      'SEO',
      'Mensajes y Notificaciones',
      'Perfil',
      'Seguridad',
    ])
    expect(HELP_TOPICS.map((section) => section.title)).toEqual([
      'Rutina diaria',
      'Costo promedio y kárdex',
      'Cuando algo falla',
      'Copias de seguridad',
    ])
    for (const section of HELP_GUIDE) {
      expect(html).toContain(`<h2 id="${section.id}-titulo"`)
      expect(textOf(html)).toContain(section.title)
    }
  })

  test('every anchor of the guide is drawn exactly once, and the table of contents links each part', () => {
    expect(guideAnchors()).toHaveLength(new Set(guideAnchors()).size)
    expect([...guideAnchors()].sort()).toEqual([...HELP_ANCHORS].sort())
    for (const anchor of HELP_ANCHORS) {
      expect(html.match(new RegExp(`id="${anchor}"`, 'g')), anchor).toHaveLength(1)
    }
    for (const section of HELP_GUIDE) expect(html).toContain(`href="#${section.id}"`)
  })

  test('the worked example is the kardex’s own formula', () => {
    const { stock, cost, quantity, unitCost, result } = AVERAGE_COST_EXAMPLE
    expect(result).toBe(averageCostAfterEntry(stock, cost, quantity, unitCost))
    // Worked by hand: (10 × 20.000 + 5 × 26.000) ÷ 15 = 330.000 ÷ 15 = 22.000 pesos.
    expect([stock, cost, quantity, unitCost, result]).toEqual([10, 2_000_000, 5, 2_600_000, 2_200_000])
    expect(textOf(html)).toContain(
      textOf(
        `Nuevo costo = (10 × ${formatCOP(2_000_000)} + 5 × ${formatCOP(2_600_000)}) ÷ 15 = ${formatCOP(33_000_000)} ÷ 15 = ${formatCOP(2_200_000)}`,
      ),
    )
    expect(textOf(html)).toContain('= $ 330.000,00 ÷ 15 = $ 22.000,00')
  })

  test('the backup commands show as code', () => {
    expect(html).toContain('>npm run backup</code>')
    expect(html).toContain('>npm run restore -- copia.tar.gz</code>')
    expect(html).not.toContain('`')
  })

  test('reads in about ten to twelve minutes', () => {
    const words = textOf(html).split(' ').filter(Boolean).length
    expect(words).toBeGreaterThan(1200)
    // Every section of the menu has its part now (SEO and Mensajes the last ones).
    expect(words).toBeLessThan(3000)
  })
})

describe('by role', () => {
  test('the owner opens every section', () => {
    const html = renderFor('owner')
    expect(textOf(html)).toContain(`Tu rol: ${ROLE_LABELS.owner}.`)
    expect(html).not.toContain('data-testid="help-not-for-role"')
    expect(html).toContain('href="/admin/usuarios"')
  })

  test('Bodega reads the whole guide, and is told which sections are not theirs', () => {
    const html = renderFor('warehouse')
    const text = textOf(html)
    expect(text).toContain(`Tu rol: ${ROLE_LABELS.warehouse}.`)
    for (const section of HELP_GUIDE) expect(html).toContain(`<section id="${section.id}"`)
    // Usuarios, Ventas, Reportes, Configuraciones, Canales, Categorías, Descuentos, Marketing, SEO,
    // Mensajes.
    expect(html.match(/data-testid="help-not-for-role"/g)).toHaveLength(10)
    expect(html).not.toContain('href="/admin/usuarios"')
    expect(html).toContain('href="/admin/productos"')
    expect(html).toContain('href="/admin/pedidos"')
    expect(text).toContain('Para: Dueño, Ventas')
    expect(text).toContain('Para todo el equipo')
  })

  test('Ventas does not open Usuarios, Configuraciones, Canales, Categorías, SEO or Mensajes', () => {
    const html = renderFor('sales')
    expect(html.match(/data-testid="help-not-for-role"/g)).toHaveLength(6)
    expect(html).toContain('href="/admin/ventas"')
    expect(html).not.toContain('href="/admin/canales"')
  })
})
