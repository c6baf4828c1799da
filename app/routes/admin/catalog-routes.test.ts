import { expect, test } from 'vitest'
import {
  FORBIDDEN_POST_MESSAGE,
  UNAUTHORISED_MESSAGE,
  UNREADABLE_FORM_MESSAGE,
} from '#app/modules/auth/messages.ts'
import { CATEGORY_MESSAGES, PRODUCT_MESSAGES } from '#app/modules/catalog/validators.ts'
import { MAX_FILES_PER_POST, UPLOAD_MESSAGES } from '#app/modules/media/validators.ts'
import { FORBIDDEN_CHARACTER_MESSAGE } from '#app/utils/forms.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { hugePixelPng, memoryStorage, pngUpload } from '#tests/media.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import { signedInAdminRoutes } from '#tests/admin-routes.ts'
import * as categoryForm from './categories/form.tsx'
import * as categoryList from './categories/list.tsx'
import * as editProduct from './products/edit.tsx'
import * as inventory from './products/inventory.tsx'
import * as saveProduct from './products/save.ts'

/**
 * The thin admin catalogue routes end to end on a real database: bad input answers a Spanish
 * message (never a 500) and writes nothing; good input does the work.
 */

const BASE = 'http://127.0.0.1:5556'
const t = setupTestDatabase()
const storage = memoryStorage()
const { current, call } = signedInAdminRoutes(BASE, t, storage)

async function outcome(run: () => Promise<unknown>) {
  try {
    return await run()
  } catch (thrown) {
    return thrown
  }
}

test('no categories yet: the list is empty (the page says "No hay categorías disponibles.")', async () => {
  const data = await call(categoryList.loader, '/admin/categorias')
  expect(data.categories).toEqual([])
  expect(CATEGORY_MESSAGES.empty).toBe('No hay categorías disponibles.')
})

test('category create and edit through the routes', async () => {
  const blank = new FormData()
  blank.set('name', '   ')
  expect(await call(categoryForm.action, '/admin/categorias/crear', {}, blank)).toMatchObject({
    message: CATEGORY_MESSAGES.nameRequired,
  })

  const fake = new FormData()
  fake.set('name', 'Collares')
  fake.set('image', new File(['no es imagen'], 'x.jpg', { type: 'image/jpeg' }))
  expect(await call(categoryForm.action, '/admin/categorias/crear', {}, fake)).toMatchObject({
    message: CATEGORY_MESSAGES.createFailed(UPLOAD_MESSAGES.notMedia('x.jpg')),
  })

  const good = new FormData()
  good.set('name', ' Collares ')
  good.set('image', new File([new Uint8Array((await pngUpload()).bytes)], 'c.png', { type: 'image/png' }))
  const created = (await outcome(() =>
    call(categoryForm.action, '/admin/categorias/crear', {}, good),
  )) as Response
  expect(created.headers.get('Location')).toBe('/admin/categorias?aviso=creada')
  const list = await call(categoryList.loader, '/admin/categorias?aviso=creada')
  expect(list.notice).toBe(CATEGORY_MESSAGES.created)
  expect(list.categories.map((c) => c.name)).toEqual(['Collares'])
  const id = list.categories[0]!.id

  const missing = new FormData()
  missing.set('name', 'Otra')
  expect(
    await call(categoryForm.action, '/admin/categorias/editar/Categoria_0', { id: 'Categoria_0' }, missing),
  ).toMatchObject({ message: CATEGORY_MESSAGES.notFound })
  expect(
    (await call(categoryForm.loader, '/admin/categorias/editar/Categoria_0', { id: 'Categoria_0' })).category,
  ).toBeNull()

  const fakeEdit = new FormData()
  fakeEdit.set('name', 'Collares largos')
  fakeEdit.set('image', new File(['hola'], 'y.png'))
  expect(await call(categoryForm.action, `/admin/categorias/editar/${id}`, { id }, fakeEdit)).toMatchObject({
    message: CATEGORY_MESSAGES.updateFailed(UPLOAD_MESSAGES.notMedia('y.png')),
  })

  const rename = new FormData()
  rename.set('name', 'Collares largos')
  const updated = (await outcome(() =>
    call(categoryForm.action, `/admin/categorias/editar/${id}`, { id }, rename),
  )) as Response
  expect(updated.headers.get('Location')).toBe('/admin/categorias?aviso=actualizada')
})

async function productForm(overrides: Record<string, string | File> = {}) {
  const list = await call(categoryList.loader, '/admin/categorias')
  const form = new FormData()
  form.set('name', 'Arete Gota')
  form.set('description', 'Arete en plata')
  form.append('categoryIds', list.categories[0]!.id)
  form.set('level1', '30000')
  form.set('cost', '9000')
  form.set('showRetail', 'on')
  form.append(
    'images',
    new File([new Uint8Array((await pngUpload('a.png')).bytes)], 'a.png', { type: 'image/png' }),
  )
  form.set('mainImage', 'nueva:0')
  for (const [name, value] of Object.entries(overrides)) form.set(name, value)
  return form
}

test('product save: refusals answer 422 with the spec text; success creates it', async () => {
  const filesBefore = storage.files.size
  const bad: [Record<string, string | File>, string][] = [
    [{ name: '' }, PRODUCT_MESSAGES.required],
    [{ description: ' ' }, PRODUCT_MESSAGES.required],
    [{ mainImage: 'nueva:5' }, PRODUCT_MESSAGES.mainImageInvalid],
    [{ cost: 'abc' }, 'El costo debe ser un número.'],
    [{ discountPercent: '101' }, 'El descuento debe estar entre 0 y 100.'],
    // An amount over what the integer centavos columns hold is a field message, not a crash.
    [{ level1: '21474837' }, 'El precio nivel 1 no puede ser mayor que $ 20.000.000.'],
    [{ cost: '1000000000' }, 'El costo no puede ser mayor que $ 20.000.000.'],
    // Spec §8: failures other than the §5 validation texts read "Error: {message}".
    [
      { images: new File(['texto'], 'falsa.jpg', { type: 'image/jpeg' }) },
      `Error: ${UPLOAD_MESSAGES.notMedia('falsa.jpg')}`,
    ],
    [{ categoryIds: 'Categoria_borrada' }, `Error: ${PRODUCT_MESSAGES.unknownCategory}`],
    // A small file that declares 16383 × 16383 pixels: refused from its header, never decoded.
    [
      { images: new File([new Uint8Array(hugePixelPng())], 'enorme.png', { type: 'image/png' }) },
      `Error: ${UPLOAD_MESSAGES.tooManyPixels('enorme.png', 16383, 16383)}`,
    ],
  ]
  for (const [overrides, message] of bad) {
    const response = await call(
      saveProduct.action,
      '/admin/productos/guardar',
      {},
      await productForm(overrides),
    )
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({ ok: false, message })
  }
  const tooMany = await productForm()
  for (let i = 0; i < MAX_FILES_PER_POST; i++) tooMany.append('images', new File(['x'], `extra-${i}.png`))
  const crowded = await call(saveProduct.action, '/admin/productos/guardar', {}, tooMany)
  expect(crowded.status).toBe(422)
  expect(await crowded.json()).toEqual({ ok: false, message: `Error: ${UPLOAD_MESSAGES.tooMany}` })
  expect(storage.files.size).toBe(filesBefore)

  const noImages = await productForm()
  noImages.delete('images')
  const refused = await call(saveProduct.action, '/admin/productos/guardar', {}, noImages)
  expect((await refused.json()).message).toBe(PRODUCT_MESSAGES.imagesRequired)
  const page = await call(inventory.loader, '/admin/productos')
  expect(page.items).toEqual([])

  const response = await call(saveProduct.action, '/admin/productos/guardar', {}, await productForm())
  const body = (await response.json()) as { ok: boolean; sku: string; message: string }
  expect(body).toMatchObject({ ok: true, message: PRODUCT_MESSAGES.created })
  expect(body.sku).toMatch(/^ARE-CAT-[A-Z0-9]{8}$/)

  const edit = await call(editProduct.loader, `/admin/productos/editar/${body.sku}`, { sku: body.sku })
  expect(edit.product).toMatchObject({ name: 'Arete Gota', priceLevel1: 30_000_00, cost: 9_000_00, stock: 0 })
  const unknown = await call(editProduct.loader, '/admin/productos/editar/prueba', { sku: 'prueba' })
  expect(unknown.product).toBeNull()

  // Edit-page intents.
  const mainId = edit.product!.media[0]!.id
  const del = new FormData()
  del.set('intent', 'eliminar-imagen')
  del.set('mediaId', String(mainId))
  expect(
    await call(editProduct.action, `/admin/productos/editar/${body.sku}`, { sku: body.sku }, del),
  ).toMatchObject({ ok: false, message: PRODUCT_MESSAGES.imageDeleteMain })
  const setMain = new FormData()
  setMain.set('intent', 'principal')
  setMain.set('mediaId', '424242')
  expect(
    await call(editProduct.action, `/admin/productos/editar/${body.sku}`, { sku: body.sku }, setMain),
  ).toMatchObject({ ok: false, message: PRODUCT_MESSAGES.mainImageFailed })

  // Delete from the inventory.
  const remove = new FormData()
  remove.set('intent', 'eliminar')
  remove.set('sku', body.sku)
  expect(await call(inventory.action, '/admin/productos?index', {}, remove)).toMatchObject({
    ok: true,
    message: PRODUCT_MESSAGES.deleted,
  })
  // Deleted twice (two tabs, a double click): the second says why it failed, answered 404.
  expect(await call(inventory.action, '/admin/productos?index', {}, remove)).toMatchObject({
    ok: false,
    message: PRODUCT_MESSAGES.notFound,
    status: 404,
  })
  // A post that is not a delete (another intent, no SKU): the delete message, answered 400.
  for (const [intent, sku] of [
    ['vaciar', body.sku],
    ['eliminar', ''],
  ]) {
    const odd = new FormData()
    odd.set('intent', intent!)
    odd.set('sku', sku!)
    expect(await call(inventory.action, '/admin/productos?index', {}, odd)).toMatchObject({
      ok: false,
      message: PRODUCT_MESSAGES.deleteFailed,
      sku: null,
      status: 400,
    })
  }
})

test('product save: a storage failure reads "Error: …" and leaves nothing behind', async () => {
  const before = (await call(inventory.loader, '/admin/productos')).items.length
  const filesBefore = storage.files.size
  const form = await productForm()
  form.append(
    'images',
    new File([new Uint8Array((await pngUpload('b.png')).bytes)], 'b.png', { type: 'image/png' }),
  )
  // The first image is written, the second one fails: the first must be deleted again.
  storage.state.failPutsAfter = storage.state.puts + 1
  try {
    const response = await call(saveProduct.action, '/admin/productos/guardar', {}, form)
    expect(response.status).toBe(503)
    expect(await response.json()).toEqual({
      ok: false,
      message: PRODUCT_MESSAGES.failure('no se pudieron guardar las imágenes, intenta de nuevo.'),
    })
  } finally {
    storage.state.failPutsAfter = Infinity
  }
  expect(storage.state.puts).toBeGreaterThan(1)
  expect((await call(inventory.loader, '/admin/productos')).items.length).toBe(before)
  expect(storage.files.size).toBe(filesBefore)
})

test('product save refusals answer JSON in Spanish: ended session, stale token, unreadable form', async () => {
  const config = testAuthConfig(BASE)
  const save = (init: RequestInit & { headers?: Record<string, string> }) =>
    asAdminRoute(saveProduct.action, {
      // As the product form's upload (product-upload.ts) asks: its refusals come back as JSON.
      request: new Request(`${BASE}/admin/productos/guardar`, {
        method: 'POST',
        ...init,
        headers: { Accept: 'application/json', ...init.headers },
      }),
      params: {},
      context: routeContext(current.services),
    }) as Promise<Response>
  const form = await productForm()
  const referer = `${BASE}/admin/productos/editar/ARE-CAT-12345678`

  // No session (signed out elsewhere, or expired): 401 and the way back in.
  const expired = await signedInAs(t.db, config, ADMIN_EMAIL, { ttlMs: -1000 })
  for (const cookie of [expired.cookie, undefined]) {
    const response = await save({
      body: form,
      headers: { Origin: BASE, Referer: referer, ...(cookie ? { Cookie: cookie } : {}) },
    })
    expect(response.status).toBe(401)
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(await response.json()).toEqual({
      ok: false,
      message: 'Tu sesión expiró. Inicia sesión de nuevo.',
      signIn: '/login-admin?aviso=sesion-expirada&volver=%2Fadmin%2Fproductos%2Feditar%2FARE-CAT-12345678',
    })
  }
  // An address taken off the allow-list: the spec §4 message.
  const intruder = await signedInAs(t.db, config, 'intruso@example.com')
  const unlisted = await save({ body: form, headers: { Origin: BASE, Cookie: intruder.cookie } })
  expect(unlisted.status).toBe(403)
  expect(await unlisted.json()).toMatchObject({ ok: false, message: UNAUTHORISED_MESSAGE })

  // A token of another session (signed in again in another tab): the forbidden-post message.
  const stale = await save({
    body: form,
    headers: { Origin: BASE, Cookie: current.admin.cookie, 'X-CSRF-Token': intruder.csrfToken },
  })
  expect(stale.status).toBe(403)
  expect(await stale.json()).toEqual({ ok: false, message: FORBIDDEN_POST_MESSAGE })

  // A body that is not a form.
  const unreadable = await save({
    body: '--nada',
    headers: {
      Origin: BASE,
      Cookie: current.admin.cookie,
      'X-CSRF-Token': current.admin.csrfToken,
      'Content-Type': 'multipart/form-data; boundary=x',
    },
  })
  expect(unreadable.status).toBe(400)
  expect(await unreadable.json()).toEqual({ ok: false, message: UNREADABLE_FORM_MESSAGE })
})

test('a NUL byte in any posted field is a Spanish 400, never a 500, and writes nothing', async () => {
  const before = (await call(categoryList.loader, '/admin/categorias')).categories.length
  const category = new FormData()
  category.set('name', 'Aretes\0largos')
  const refusedCategory = (await outcome(() =>
    call(categoryForm.action, '/admin/categorias/crear', {}, category),
  )) as { data: { message: string }; init: { status: number } }
  expect(refusedCategory.init.status).toBe(400)
  expect(refusedCategory.data.message).toBe(FORBIDDEN_CHARACTER_MESSAGE)
  expect((await call(categoryList.loader, '/admin/categorias')).categories.length).toBe(before)

  for (const field of ['name', 'description', 'supplierInfo', 'sku']) {
    const form = await productForm({ [field]: 'a\0b' })
    const response = await call(saveProduct.action, '/admin/productos/guardar', {}, form)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false, message: FORBIDDEN_CHARACTER_MESSAGE })
  }
  const remove = new FormData()
  remove.set('intent', 'eliminar')
  remove.set('sku', 'a\0b')
  const refusedDelete = (await outcome(() =>
    call(inventory.action, '/admin/productos?index', {}, remove),
  )) as {
    init: { status: number }
  }
  expect(refusedDelete.init.status).toBe(400)
})

test('a NUL byte in the address (%00 in a sku or category id) is a Spanish 4xx, never a 500 (found by the fuzz suite)', async () => {
  const edit = await productForm()
  edit.set('loadedCost', '12000')
  expect(await call(editProduct.action, '/admin/productos/editar/%00', { sku: '\0' }, edit)).toMatchObject({
    ok: false,
    message: `Error: ${PRODUCT_MESSAGES.notFound}`,
    status: 404,
  })
  const removeImage = new FormData()
  removeImage.set('intent', 'eliminar-imagen')
  removeImage.set('mediaId', '1')
  expect(
    await call(editProduct.action, '/admin/productos/editar/%00', { sku: 'a\0' }, removeImage),
  ).toMatchObject({
    ok: false,
    message: PRODUCT_MESSAGES.imageDeleteFailed,
  })
  const category = new FormData()
  category.set('name', 'Aretes')
  expect(
    await call(categoryForm.action, '/admin/categorias/editar/%00', { id: 'a\0b' }, category),
  ).toMatchObject({
    ok: false,
    status: 404,
  })
})

test('an image id that is not one (junk, a fraction, past int32) is a 400 with the spec text', async () => {
  const response = await call(saveProduct.action, '/admin/productos/guardar', {}, await productForm())
  const { sku } = (await response.json()) as { sku: string }
  for (const mediaId of ['abc', '1.5', '1e20', '99999999999', '']) {
    for (const [intent, message] of [
      ['eliminar-imagen', PRODUCT_MESSAGES.imageDeleteFailed],
      ['principal', PRODUCT_MESSAGES.mainImageFailed],
    ]) {
      const form = new FormData()
      form.set('intent', intent!)
      form.set('mediaId', mediaId)
      expect(await call(editProduct.action, `/admin/productos/editar/${sku}`, { sku }, form)).toMatchObject({
        ok: false,
        message,
        status: 400,
      })
    }
  }
})
