import { data, redirect } from 'react-router'
import { afterEach, expect, test, vi } from 'vitest'
import { failureOf, formFailure, jsonFailure, refusedRequest } from './answer.server.ts'
import { Refusal } from './refusal.ts'
import { logger } from '#app/utils/logger.server.ts'

const request = new Request('http://tienda.test/admin/productos/guardar', { method: 'POST' })
const words = { unexpected: 'no se pudo guardar, intenta de nuevo.', frame: (m: string) => `Error: ${m}` }

afterEach(() => vi.restoreAllMocks())

test('a refusal reads in the route frame with its status; one that stands alone reads as is', () => {
  const log = vi.spyOn(logger, 'error').mockImplementation(() => {})
  expect(failureOf(new Refusal('La categoría ya no existe.'), request, words)).toEqual({
    message: 'Error: La categoría ya no existe.',
    status: 422,
  })
  expect(
    failureOf(new Refusal('Debes subir al menos una imagen.', { standsAlone: true }), request, words),
  ).toEqual({ message: 'Debes subir al menos una imagen.', status: 422 })
  expect(
    failureOf(new Refusal('Producto no encontrado.', { status: 404 }), request, { unexpected: '' }),
  ).toEqual({
    message: 'Producto no encontrado.',
    status: 404,
  })
  expect(log).not.toHaveBeenCalled()
})

test('anything unexpected is logged with the request and reads the route text, status 500', () => {
  const log = vi.spyOn(logger, 'error').mockImplementation(() => {})
  const boom = new Error('connection reset')
  expect(failureOf(boom, request, words)).toEqual({
    message: 'Error: no se pudo guardar, intenta de nuevo.',
    status: 500,
  })
  expect(log).toHaveBeenCalledWith({ err: boom }, '[POST /admin/productos/guardar]')
})

test("a refusal's cause is logged; the person reads the refusal", () => {
  const log = vi.spyOn(logger, 'error').mockImplementation(() => {})
  const cause = new Error('disco lleno')
  const refusal = new Refusal('no se pudieron guardar las imágenes.', { status: 503, cause })
  expect(failureOf(refusal, request, words)).toEqual({
    message: 'Error: no se pudieron guardar las imágenes.',
    status: 503,
  })
  expect(log).toHaveBeenCalledWith({ err: cause }, '[POST /admin/productos/guardar]')
})

test("React Router's own answers are thrown on untouched", () => {
  const signIn = redirect('/login-admin')
  const unreadable = data({ message: 'ilegible' }, { status: 400 })
  expect(() => failureOf(signIn, request, words)).toThrow(signIn as unknown as Error)
  expect(() => failureOf(unreadable, request, words)).toThrow()
})

test('form and JSON shapes carry the status', async () => {
  const form = formFailure(new Refusal('No.', { status: 409 }), request, words, { sku: 'A-1' })
  expect(form.init?.status).toBe(409)
  expect(form.data).toMatchObject({ ok: false, message: 'Error: No.', sku: 'A-1' })
  const json = jsonFailure(new Refusal('No.', { standsAlone: true }), request, words)
  expect(json.status).toBe(422)
  expect(await json.json()).toEqual({ ok: false, message: 'No.' })
})

test('a refused request (unreadable form, forbidden post) answers JSON with its own message and status', async () => {
  for (const [message, status] of [
    ['ilegible', 400],
    ['prohibido', 403],
  ] as const) {
    const json = jsonFailure(refusedRequest(message, status), request, words)
    expect(json.status).toBe(status)
    expect(await json.json()).toEqual({ ok: false, message })
  }
  expect(() => failureOf(refusedRequest('ilegible', 400), request, words)).toThrow()
})

test("a thrown Response is worded by the module's script answer, and thrown on when nobody words it", async () => {
  const signIn = redirect('/login-admin')
  const worded = jsonFailure(signIn, request, words, () =>
    Response.json({ ok: false, message: 'Inicia sesión.' }, { status: 401 }),
  )
  expect(worded.status).toBe(401)
  expect(await worded.json()).toEqual({ ok: false, message: 'Inicia sesión.' })
  expect(() => jsonFailure(signIn, request, words, () => undefined)).toThrow()
  expect(() => jsonFailure(signIn, request, words)).toThrow()
})
