import { expect, test } from 'vitest'
import { baseURL } from './browser.ts'

/**
 * The production server keeps storefront pages (app/modules/page-cache, docs/decisions/0012). What
 * it serves and when it renders again are tested in app/modules/page-cache/; here, that the built
 * server has it in front of the app.
 */
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${baseURL()}${path}`, { headers, redirect: 'manual' })

test('a storefront page is served from the cache, with a validator; admins and the cart are not', async () => {
  // Polled: a background job that changes the catalogue between two requests renders it again.
  await expect
    .poll(async () => {
      await get('/politica-de-datos')
      return (await get('/politica-de-datos')).headers.get('x-vitrina-cache')
    })
    .toBe('hit')
  const kept = await get('/politica-de-datos')
  expect(kept.headers.get('cache-control')).toMatch(/^public, max-age=0, s-maxage=\d+/)
  const etag = kept.headers.get('etag')!
  await expect.poll(async () => (await get('/politica-de-datos', { 'if-none-match': etag })).status).toBe(304)

  const admin = await get('/politica-de-datos', { cookie: 'vitrina_admin=cualquiera' })
  expect(admin.headers.get('x-vitrina-cache')).toBe('bypass')
  expect(admin.headers.get('cache-control')).toBe('private, no-store')

  await get('/carrito')
  expect((await get('/carrito')).headers.get('x-vitrina-cache')).toBeNull()
})

test('a page served from the cache carries the request’s own nonce, in its policy and in the page', async () => {
  const hit = async () => {
    const answer = await get(`/politica-de-datos`)
    return { answer, text: await answer.text() }
  }
  const nonces = new Set<string>()
  for (let i = 0; i < 3; i++) {
    // Polled: a background job that changes the catalogue between two requests renders it again.
    let kept = await hit()
    await expect
      .poll(async () => {
        kept = await hit()
        return kept.answer.headers.get('x-vitrina-cache')
      })
      .toBe('hit')
    const nonce = kept.answer.headers.get('content-security-policy')?.match(/'nonce-([^']+)'/)?.[1]
    expect(nonce).toMatch(/^[\w+/]{22}==$/)
    // Links, which need none, carry an empty nonce (root.tsx).
    const inPage = [...kept.text.matchAll(/nonce="([^"]+)"/g)].map(([, value]) => value)
    expect(inPage.length).toBeGreaterThanOrEqual(4)
    expect(new Set(inPage)).toEqual(new Set([nonce]))
    nonces.add(nonce!)
  }
  expect(nonces.size).toBe(3)
})
