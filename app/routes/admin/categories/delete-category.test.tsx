import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { expect, test } from 'vitest'
import { CATEGORY_DELETE_MESSAGES, createCategory } from '#app/modules/catalog/admin-categories.server.ts'
import { categories } from '#app/modules/catalog/schema.ts'
import { CATEGORY_MESSAGES } from '#app/modules/catalog/validators.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import { signedInAdminRoutes } from '#tests/admin-routes.ts'
import * as categoryList from './list.tsx'

/**
 * "Eliminar" on /admin/categorias: a plain form post (it works before scripts run) to the list's
 * action, which deletes an empty category and refuses one with products; the page then shows the
 * outcome, and with no category left the spec's empty text.
 */

const BASE = 'http://127.0.0.1:5581'
const t = setupTestDatabase()
const storage = memoryStorage()
const { current, call } = signedInAdminRoutes(BASE, t, storage)

/** What a browser without scripts sends for the button's form: urlencoded, with the token. */
async function plainPost(fields: Record<string, string>) {
  const body = new URLSearchParams({ csrf: current.admin.csrfToken, ...fields })
  const request = new Request(`${BASE}/admin/categorias`, {
    method: 'POST',
    body,
    headers: {
      Cookie: current.admin.cookie,
      Origin: BASE,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
  })
  const answer = (await asAdminRoute(categoryList.action, {
    request,
    context: routeContext(current.services),
  })) as { type?: unknown; data?: object; init?: ResponseInit | null }
  return answer?.type === 'DataWithResponseInit'
    ? { ...(answer.data as { ok: boolean; message: string }), status: answer.init?.status ?? 200 }
    : { ...(answer as { ok: boolean; message: string }), status: 200 }
}

function render(loaderData: unknown, actionData?: unknown) {
  const Page = categoryList.default as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'page', path: '/admin/categorias', Component: Page, loader: () => loaderData },
  ])
  return renderToString(
    <Stub
      initialEntries={['/admin/categorias']}
      hydrationData={{ loaderData: { page: loaderData }, actionData: actionData ? { page: actionData } : {} }}
    />,
  )
}

test('each category has an "Eliminar" form that posts without scripts, and says how many products it has', async () => {
  await t.db.delete(categories)
  const full = await createCategory(t.db, storage, { name: 'Collares' })
  await createProduct(t.db, { categoryIds: [full.id] })
  await createProduct(t.db, { categoryIds: [full.id] })
  const empty = await createCategory(t.db, storage, { name: 'Broches' })
  const html = render(await call(categoryList.loader, '/admin/categorias'))
  for (const id of [full.id, empty.id]) {
    expect(html).toMatch(
      new RegExp(
        `<form method="post" action="/admin/categorias"[^>]*>.*?<input type="hidden" name="intent" value="eliminar"/><input type="hidden" name="id" value="${id}"/><button type="submit"[^>]*>Eliminar</button></form>`,
      ),
    )
  }
  expect(html).toContain('aria-label="Eliminar Broches"')
  expect(html).toContain('2 productos')
  expect(html).toContain('Sin productos')
  expect(categoryList.deleteCategoryConfirm('Broches')).toBe(
    '¿Estás seguro de que quieres eliminar la categoría «Broches»?',
  )
})

test('a plain post deletes an empty category with its image; the last one gone, the page says the empty text', async () => {
  await t.db.delete(categories)
  const { id } = await createCategory(t.db, storage, { name: 'Tobilleras', image: await pngUpload() })
  const files = [...storage.files.keys()]
  expect(files.length).toBeGreaterThan(0)

  const answer = await plainPost({ intent: 'eliminar', id })
  expect(answer).toMatchObject({
    ok: true,
    status: 200,
    message: CATEGORY_DELETE_MESSAGES.deleted('Tobilleras'),
  })
  for (const file of files) expect(storage.files.has(file)).toBe(false)
  const list = await call(categoryList.loader, '/admin/categorias')
  expect(list.categories).toEqual([])
  const html = render(list, answer)
  expect(html).toContain('Categoría «Tobilleras» eliminada con éxito.')
  expect(html).toContain('data-testid="categories-empty"')
  expect(html).toContain(CATEGORY_MESSAGES.empty)
})

test('a category with products is refused (409) with how many; it stays, and the page says why', async () => {
  await t.db.delete(categories)
  const { id } = await createCategory(t.db, storage, { name: 'Relojes' })
  await createProduct(t.db, { categoryIds: [id] })
  const answer = await plainPost({ intent: 'eliminar', id })
  const message =
    'No se puede eliminar la categoría «Relojes»: tiene 1 producto. Muévelo primero a otra categoría (o quítalo de esta) y vuelve a intentarlo.'
  expect(answer).toMatchObject({ ok: false, status: 409, message })
  const list = await call(categoryList.loader, '/admin/categorias')
  expect(list.categories.map((c) => c.id)).toEqual([id])
  const html = render(list, answer)
  expect(html).toContain(message)
  expect(html).toContain('Relojes')
})

test('an unknown id is "Categoría no encontrada." (404); a post that is not a delete is a 400', async () => {
  expect(await plainPost({ intent: 'eliminar', id: 'Categoria_0' })).toMatchObject({
    ok: false,
    status: 404,
    message: CATEGORY_MESSAGES.notFound,
  })
  const notDeletes: Record<string, string>[] = [
    { id: 'Categoria_0' },
    { intent: 'borrar', id: 'Categoria_0' },
    { intent: 'eliminar' },
  ]
  for (const fields of notDeletes) {
    expect(await plainPost(fields)).toMatchObject({
      ok: false,
      status: 400,
      message: CATEGORY_DELETE_MESSAGES.failed,
    })
  }
})
