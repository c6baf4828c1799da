import { expect, test } from 'vitest'
import { FORBIDDEN_POST_MESSAGE, UNREADABLE_FORM_MESSAGE } from '#app/modules/auth/messages.ts'
import { PRODUCT_MESSAGES } from '#app/modules/catalog/validators.ts'
import { MEDIA_ACCEPT } from './media-picker.tsx'
import { saveResultFrom } from './product-upload.ts'

test("the server's JSON answer is shown as it is, refusals included", () => {
  expect(saveResultFrom(200, { ok: true, sku: 'COL-CAT-1', message: PRODUCT_MESSAGES.created })).toEqual({
    ok: true,
    sku: 'COL-CAT-1',
    message: PRODUCT_MESSAGES.created,
  })
  expect(saveResultFrom(422, { ok: false, message: PRODUCT_MESSAGES.required })).toEqual({
    ok: false,
    message: PRODUCT_MESSAGES.required,
  })
  const signIn = '/login-admin?aviso=sesion-expirada'
  expect(
    saveResultFrom(401, { ok: false, message: 'Tu sesión expiró. Inicia sesión de nuevo.', signIn }),
  ).toEqual({ ok: false, message: 'Tu sesión expiró. Inicia sesión de nuevo.', signIn })
  // Only a sign-in path of this shop becomes a link.
  expect(saveResultFrom(401, { ok: false, message: 'x', signIn: 'https://otro.example' })).toEqual({
    ok: false,
    message: 'x',
  })
})

test('answers without JSON get a Spanish text for their status, never English or a generic one', () => {
  expect(saveResultFrom(413, null)).toEqual({ ok: false, message: PRODUCT_MESSAGES.requestTooLarge })
  expect(PRODUCT_MESSAGES.requestTooLarge).toMatch(/^Error: .*120 MB/)
  expect(saveResultFrom(403, null)).toEqual({ ok: false, message: FORBIDDEN_POST_MESSAGE })
  expect(saveResultFrom(400, null)).toEqual({ ok: false, message: UNREADABLE_FORM_MESSAGE })
  expect(saveResultFrom(401, null)).toMatchObject({
    message: 'Tu sesión expiró. Inicia sesión de nuevo.',
    signIn: '/login-admin?aviso=sesion-expirada',
  })
  // A redirect to the sign-in page followed by the browser: its HTML, status 200.
  expect(saveResultFrom(200, null, 'http://127.0.0.1:3000/login-admin?aviso=sesion-expirada')).toMatchObject({
    ok: false,
    message: 'Tu sesión expiró. Inicia sesión de nuevo.',
  })
  expect(saveResultFrom(0, null)).toEqual({ ok: false, message: PRODUCT_MESSAGES.unreachable })
  expect(saveResultFrom(502, null)).toEqual({ ok: false, message: PRODUCT_MESSAGES.unexpected })
})

test('the file chooser offers images and the videos the server takes', () => {
  expect(MEDIA_ACCEPT.split(',')).toEqual(['image/*', 'video/mp4', 'video/webm', 'video/ogg'])
})
