import { expect, test } from 'vitest'
import { getPromotion, listPromotions } from '#app/modules/promotions/admin-promotions.server.ts'
import { NEW_PROMOTION_VALUES, PROMOTION_MESSAGES } from '#app/modules/promotions/validators.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory } from '#tests/factories.ts'
import { signedInAdminRoutes } from '#tests/admin-routes.ts'
import * as promotionForm from './form.tsx'
import * as promotionList from './list.tsx'

/**
 * /admin/descuentos and its form on a real database: bad input answers a Spanish message with
 * what was typed (never a 500) and writes nothing; each list button is a plain form post.
 */

const BASE = 'http://127.0.0.1:5591'
const t = setupTestDatabase()
const { call, renderPage } = signedInAdminRoutes(BASE, t)

async function outcome(run: () => Promise<unknown>) {
  try {
    return await run()
  } catch (thrown) {
    return thrown
  }
}

const fields = (overrides: Record<string, string> = {}) => {
  const form = new FormData()
  for (const [name, value] of Object.entries({
    ...NEW_PROMOTION_VALUES,
    name: 'Bienvenida',
    code: 'hola10',
    ...overrides,
  })) {
    if (typeof value === 'string') form.set(name, value)
    else if (value === true) form.set(name, 'on')
  }
  return form
}

test('no promotions yet: the list says so and offers a new one', async () => {
  const html = await renderPage(promotionList, '/admin/descuentos')
  expect(html).toContain('Descuentos y Promociones')
  expect(html).toContain(PROMOTION_MESSAGES.empty)
  expect(html).toContain('href="/admin/descuentos/nueva"')
})

test('create: a refusal keeps what was typed with a message per field; a good form creates it', async () => {
  const refused = await call(
    promotionForm.action,
    '/admin/descuentos/nueva',
    {},
    fields({ percent: '150', name: '' }),
  )
  expect(refused).toMatchObject({
    ok: false,
    status: 422,
    message: PROMOTION_MESSAGES.invalid,
    fieldErrors: { name: PROMOTION_MESSAGES.nameRequired },
    typed: { code: 'hola10', percent: '150' },
  })
  const combination = await call(
    promotionForm.action,
    '/admin/descuentos/nueva',
    {},
    fields({ benefit: 'buy_x_pay_y' }),
  )
  expect(combination).toMatchObject({ fieldErrors: { benefit: PROMOTION_MESSAGES.buyPayNeedsAutomatic } })
  expect(await listPromotions(t.db)).toEqual([])

  const created = (await outcome(() =>
    call(promotionForm.action, '/admin/descuentos/nueva', {}, fields({ maxUses: '50' })),
  )) as Response
  expect(created.headers.get('Location')).toBe('/admin/descuentos?aviso=creada')
  const list = await call(promotionList.loader, '/admin/descuentos?aviso=creada')
  expect(list.notice).toBe(PROMOTION_MESSAGES.created)
  expect(list.promotions).toMatchObject([
    { name: 'Bienvenida', code: 'HOLA10', description: '10 % en todo el pedido', state: 'activa', uses: 0 },
  ])

  // The same code again: refused by the server, with the field's message.
  expect(
    await call(promotionForm.action, '/admin/descuentos/nueva', {}, fields({ code: 'Hola10' })),
  ).toMatchObject({
    status: 422,
    fieldErrors: { code: PROMOTION_MESSAGES.codeTaken('HOLA10') },
  })
})

test('the form: every field is on the page without scripts; a refusal shows what was typed', async () => {
  await createCategory(t.db, { name: 'Aretes de prueba' })
  const html = await renderPage(promotionForm, '/admin/descuentos/nueva')
  for (const name of [
    'name',
    'code',
    'benefit',
    'target',
    'percent',
    'amount',
    'buyQuantity',
    'payQuantity',
    'categoryIds',
    'productSkus',
    'minSubtotal',
    'startsAt',
    'endsAt',
    'maxUses',
    'maxUsesPerCustomer',
    'combinable',
    'active',
  ])
    expect(html).toContain(`name="${name}"`)
  expect(html).toContain('Aretes de prueba')
  expect(html).not.toMatch(/class="hidden"/)
  expect(html).toContain('type="datetime-local"')
})

test('edit, then each list button: duplicate, pause, resume, end now', async () => {
  const [first] = await listPromotions(t.db)
  const id = String(first!.id)
  const path = `/admin/descuentos/editar/${id}`
  const loaded = await call(promotionForm.loader, path, { id })
  expect(loaded.values).toMatchObject({ code: 'HOLA10', maxUses: '50', kind: 'codigo' })
  const html = await renderPage(promotionForm, path, { id })
  expect(html).toContain('value="HOLA10"')
  expect(html).toContain('Guardar cambios')

  const updated = (await outcome(() =>
    call(
      promotionForm.action,
      path,
      { id },
      fields({ code: 'HOLA10', benefit: 'fixed', amount: '15.000', maxUses: '50' }),
    ),
  )) as Response
  expect(updated.headers.get('Location')).toBe('/admin/descuentos?aviso=actualizada')
  expect(await getPromotion(t.db, id)).toMatchObject({ benefit: 'fixed', amount: 1_500_000 })

  expect((await call(promotionForm.loader, '/admin/descuentos/editar/999', { id: '999' })).values).toBeNull()
  expect(
    await call(promotionForm.action, '/admin/descuentos/editar/999', { id: '999' }, fields()),
  ).toMatchObject({
    status: 404,
    message: PROMOTION_MESSAGES.notFound,
  })

  const post = (intent: string, target = id) =>
    call(promotionList.action, '/admin/descuentos', {}, { intent, id: target })
  expect(await post('duplicar')).toMatchObject({
    ok: true,
    message: PROMOTION_MESSAGES.duplicated('Bienvenida (copia)'),
  })
  expect(await post('pausar')).toMatchObject({ ok: true, message: PROMOTION_MESSAGES.paused('Bienvenida') })
  expect(await post('reanudar')).toMatchObject({
    ok: true,
    message: PROMOTION_MESSAGES.resumed('Bienvenida'),
  })
  expect(await post('terminar')).toMatchObject({ ok: true, message: PROMOTION_MESSAGES.ended('Bienvenida') })
  expect(await post('reanudar')).toMatchObject({
    ok: false,
    status: 409,
    message: PROMOTION_MESSAGES.alreadyEnded('Bienvenida'),
  })
  expect(await post('borrar')).toMatchObject({ status: 400, message: PROMOTION_MESSAGES.badRequest })
  expect(await post('pausar', 'x')).toMatchObject({ status: 404, message: PROMOTION_MESSAGES.notFound })

  const list = await call(promotionList.loader, '/admin/descuentos')
  expect(list.promotions.map((p) => [p.name, p.code, p.state])).toEqual([
    ['Bienvenida (copia)', 'HOLA10-COPIA', 'pausada'],
    ['Bienvenida', 'HOLA10', 'vencida'],
  ])
  const page = await renderPage(promotionList, '/admin/descuentos')
  // Each button a plain form post with its intent and the promotion's id (works without scripts).
  expect(page).toMatch(
    /<form method="post" action="\/admin\/descuentos"[^>]*>.*?<input type="hidden" name="intent" value="reanudar"\/><input type="hidden" name="id" value="\d+"\/><button type="submit"[^>]*>Reanudar<\/button><\/form>/,
  )
  expect(page).toContain('$\u00a015.000,00 en todo el pedido')
  expect(page).toContain('Vencida')
  expect(page).toContain('Pausada')
  expect(page).toContain('0 de 50')
})
