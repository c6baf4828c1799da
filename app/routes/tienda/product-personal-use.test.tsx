import { renderToString } from 'react-dom/server'
import { createRoutesStub, Outlet } from 'react-router'
import { expect, test, vi } from 'vitest'
import ProductPage from './product.tsx'

/**
 * Ley 1480, art. 47: a personal-use good may be left out of the right of withdrawal only if the
 * shopper is told before buying. The product page, as the server draws it, says so.
 */

function render(personalUse: boolean) {
  // The gallery's layout effect warns on the server; what is asserted is the text.
  vi.spyOn(console, 'error').mockImplementation(() => {})
  const loaderData = {
    product: {
      sku: 'COL-ARE-ABCDEFGH',
      name: 'Aretes Sol',
      price: 4_000_000,
      finalPrice: 4_000_000,
      discountPercent: 0,
      available: 3,
      image: null,
      description: 'Aretes de plata',
      personalUse,
      shareImage: null,
      media: [],
      categories: [],
    },
    jsonLd: '{}',
    shippingNotice: null,
  }
  const layoutData = { store: { whatsappNumber: '573001112233' } }
  const Stub = createRoutesStub([
    {
      id: 'routes/tienda/layout',
      path: '/',
      Component: Outlet,
      loader: () => layoutData,
      children: [
        {
          id: 'product',
          path: 'producto/:sku',
          Component: ProductPage as unknown as React.ComponentType,
          loader: () => loaderData,
        },
      ],
    },
  ])
  return renderToString(
    <Stub
      initialEntries={['/producto/COL-ARE-ABCDEFGH']}
      hydrationData={{ loaderData: { 'routes/tienda/layout': layoutData, product: loaderData } }}
    />,
  )
}

test('a personal-use good says it has no right of withdrawal; any other says nothing', () => {
  expect(render(true)).toContain(
    'Producto de uso personal: no admite derecho de retracto (Ley 1480 de 2011, art. 47).',
  )
  expect(render(false)).not.toContain('derecho de retracto')
})
