import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { CAMPAIGN_COOKIE } from '#app/modules/analytics/campaign.ts'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, serializeConsent } from '#app/modules/analytics/consent.ts'
import { rememberCampaignTouch } from './campaign-touch.ts'

/** The middleware in front of an app that answers every request with a page. */
let server: http.Server
let port = 0

beforeAll(async () => {
  const app = express()
  app.use(rememberCampaignTouch('https://tienda.example.co'))
  app.all('/{*splat}', (_req, res) => {
    res.send('<p>página</p>')
  })
  server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const allowed = `${CONSENT_COOKIE}=${encodeURIComponent(serializeConsent({ analytics: true, advertising: false, version: CONSENT_POLICY_VERSION }))}`
const page = { Accept: 'text/html,application/xhtml+xml', 'Sec-Fetch-Dest': 'document' }

/** The Set-Cookie headers a GET of `path` answers. */
function setCookiesOf(path: string, headers: Record<string, string>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, headers }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.headers['set-cookie'] ?? []))
    })
    request.on('error', reject)
    request.end()
  })
}

test('the first page a consenting shopper opens keeps its campaign and referring site', async () => {
  const cookies = await setCookiesOf('/producto/X?utm_source=instagram&utm_campaign=navidad', {
    ...page,
    Cookie: allowed,
    Referer: 'https://l.instagram.com/',
  })
  expect(cookies).toEqual([
    `${CAMPAIGN_COOKIE}=${encodeURIComponent('s=instagram&c=navidad&r=l.instagram.com')}; Path=/; HttpOnly; SameSite=Lax; Secure`,
  ])
})

test('without consent, on later pages, and for what is not a page, nothing is kept', async () => {
  const landing = '/?utm_source=instagram'
  expect(await setCookiesOf(landing, page)).toEqual([])
  expect(await setCookiesOf(landing, { ...page, Cookie: `${allowed}; ${CAMPAIGN_COOKIE}=directo` })).toEqual(
    [],
  )
  for (const path of [
    '/api/carrito?utm_source=x',
    '/_root.data?utm_source=x',
    '/sitemap.xml',
    '/admin?utm_source=x',
  ])
    expect(await setCookiesOf(path, { ...page, Cookie: allowed }), path).toEqual([])
  // A script's fetch of a page's data is no landing either.
  expect(await setCookiesOf(landing, { Accept: '*/*', 'Sec-Fetch-Dest': 'empty', Cookie: allowed })).toEqual(
    [],
  )
})

test('a kept touch is forgotten once analytics is withdrawn', async () => {
  const withdrawn = `${CONSENT_COOKIE}=${encodeURIComponent(serializeConsent({ analytics: false, advertising: true, version: CONSENT_POLICY_VERSION }))}`
  const cookies = await setCookiesOf('/', { ...page, Cookie: `${withdrawn}; ${CAMPAIGN_COOKIE}=directo` })
  expect(cookies).toEqual([`${CAMPAIGN_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`])
})
