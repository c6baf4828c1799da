import { expect, test } from 'vitest'
import { missingMediaSentence } from '#app/components/admin/missing-media-notice.tsx'
import { missingMedia } from '#app/modules/catalog/schema.ts'
import { adminProductEditPath } from '#app/utils/paths.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { signedInAdminRoutes } from '#tests/admin-routes.ts'
import * as editProduct from './edit.tsx'
import * as inventory from './inventory.tsx'

/**
 * Files an import could not bring: the product's edit page lists them for the owner to upload
 * again (the addresses as text, never fetched by the page), the inventory counts them, and a
 * handled one is dismissed.
 */

const BASE = 'http://127.0.0.1:5558'
const t = setupTestDatabase()
const { call, renderPage } = signedInAdminRoutes(BASE, t)

test('the edit page lists the files that could not be brought; the inventory counts them; a handled one leaves', async () => {
  const product = await createProduct(t.db, { name: 'Collar Importado' })
  const untouched = await createProduct(t.db, { name: 'Collar Completo' })
  const rows = await t.db
    .insert(missingMedia)
    .values([
      {
        productSku: product.sku,
        kind: 'image',
        url: 'https://fotos.example.com/o/principal.jpg?alt=media',
        reason: 'el servidor respondió HTTP 404',
        position: 0,
      },
      {
        productSku: product.sku,
        kind: 'video',
        url: 'http://127.0.0.1:8080/o/video.mp4',
        reason: null,
        position: 1,
      },
    ])
    .returning({ id: missingMedia.id })

  const path = adminProductEditPath(product.sku)
  const html = await renderPage(editProduct as never, path, { sku: product.sku })
  expect(html).toContain('data-testid="missing-media"')
  expect(html).toContain('2 archivos no se pudieron traer de la tienda original')
  expect(html.match(/data-testid="missing-media-item"/g)).toHaveLength(2)
  expect(html).toContain('https://fotos.example.com/o/principal.jpg?alt=media')
  expect(html).toContain('Motivo: el servidor respondió HTTP 404')
  expect(html).toContain('Ya lo resolví')
  // Shown as text only: no image, video or link makes the owner's browser ask for them.
  expect(html).not.toMatch(/(src|href)="[^"]*(fotos\.example\.com|127\.0\.0\.1:8080)/)

  const clean = await renderPage(editProduct as never, adminProductEditPath(untouched.sku), {
    sku: untouched.sku,
  })
  expect(clean).not.toContain('data-testid="missing-media"')

  const list = await renderPage(inventory as never, '/admin/productos')
  expect(list).toContain('data-testid="missing-media-summary"')
  expect(list).toContain(
    'Un producto tiene 2 archivos que no se pudieron traer de la tienda original y no se muestran en la tienda: súbelos de nuevo desde el producto.',
  )
  expect(list).toContain(`href="${path}"`)

  const answer = await call(
    editProduct.action,
    path,
    { sku: product.sku },
    {
      intent: 'descartar-archivo',
      missingId: String(rows[0]!.id),
    },
  )
  expect(answer).toMatchObject({ ok: true, message: 'Archivo quitado de la lista.' })
  const after = await renderPage(editProduct as never, path, { sku: product.sku })
  expect(after).toContain('Un archivo no se pudo traer de la tienda original')
  expect(after).not.toContain('principal.jpg')
  expect(await renderPage(inventory as never, '/admin/productos')).toContain(
    'Un producto tiene un archivo que no se pudo traer de la tienda original y no se muestra en la tienda: súbelo de nuevo desde el producto.',
  )

  const junk = await call(
    editProduct.action,
    path,
    { sku: product.sku },
    {
      intent: 'descartar-archivo',
      missingId: 'uno',
    },
  )
  expect(junk).toMatchObject({
    ok: false,
    message: 'No se pudo quitar el archivo de la lista. Intenta de nuevo.',
  })

  await call(
    editProduct.action,
    path,
    { sku: product.sku },
    {
      intent: 'descartar-archivo',
      missingId: String(rows[1]!.id),
    },
  )
  expect(await renderPage(editProduct as never, path, { sku: product.sku })).not.toContain(
    'data-testid="missing-media"',
  )
  expect(await renderPage(inventory as never, '/admin/productos')).not.toContain('missing-media-summary')
})

test('the inventory notice agrees in number with its products and files', () => {
  expect(missingMediaSentence({ products: 3, files: 4 })).toBe(
    '3 productos tienen 4 archivos que no se pudieron traer de la tienda original y no se muestran en la tienda: súbelos de nuevo desde cada producto.',
  )
  expect(missingMediaSentence({ products: 1, files: 1 })).toBe(
    'Un producto tiene un archivo que no se pudo traer de la tienda original y no se muestra en la tienda: súbelo de nuevo desde el producto.',
  )
})
