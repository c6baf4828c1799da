import { desc } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { settingChanges } from './schema.ts'
import { readSeoSettings, saveSeoSettings, SeoSettingsRefused } from './seo-settings.server.ts'
import {
  checkSeoSettingsForm,
  robotsLineProblem,
  SEO_SETTING_DEFAULTS,
  SEO_SETTINGS_MESSAGES,
  verificationTokenOf,
} from './validators.ts'

const t = setupTestDatabase()

const form = (overrides: Record<string, string> = {}) => ({
  seoSitemapProducts: 'on',
  seoSitemapCategories: 'on',
  seoRobotsExtra: '',
  seoGoogleVerification: '',
  ...overrides,
})

test('robots.txt lines: known directives with a proper value, comments and blank lines', () => {
  for (const line of [
    '',
    '# bots de IA',
    'User-agent: GPTBot',
    'user-agent: *',
    'Disallow: /',
    'Disallow:',
    'Allow: /*.webp$',
    'Sitemap: https://tienda.example.co/otro.xml',
    'Crawl-delay: 10',
  ])
    expect(robotsLineProblem(line), line).toBeNull()
  expect(robotsLineProblem('Disallow: admin')).toBe(SEO_SETTINGS_MESSAGES.robotsPath)
  expect(robotsLineProblem('Sitemap: /sitemap.xml')).toBe(SEO_SETTINGS_MESSAGES.robotsSitemap)
  expect(robotsLineProblem('Noindex: /')).toBe(SEO_SETTINGS_MESSAGES.robotsUnknown)
  expect(robotsLineProblem('<script>')).toBe(SEO_SETTINGS_MESSAGES.robotsUnknown)
  expect(robotsLineProblem('User-agent: dos palabras')).toBe(SEO_SETTINGS_MESSAGES.robotsAgent)
  expect(robotsLineProblem('Crawl-delay: 999')).toBe(SEO_SETTINGS_MESSAGES.robotsDelay)
  expect(robotsLineProblem(`Disallow: /${'a'.repeat(200)}`)).toBe(SEO_SETTINGS_MESSAGES.robotsTooLong)
  const refused = checkSeoSettingsForm(form({ seoRobotsExtra: 'User-agent: *\nDisallow: privado' }))
  expect(refused).toEqual({
    ok: false,
    errors: { seoRobotsExtra: SEO_SETTINGS_MESSAGES.robotsLine(2, SEO_SETTINGS_MESSAGES.robotsPath) },
  })
  const tooMany = checkSeoSettingsForm(form({ seoRobotsExtra: 'Disallow: /x\n'.repeat(51) }))
  expect(tooMany).toEqual({ ok: false, errors: { seoRobotsExtra: SEO_SETTINGS_MESSAGES.robotsTooMany } })
})

test('the verification code: the token, or taken from the whole tag Search Console gives', () => {
  expect(verificationTokenOf('')).toBe('')
  expect(verificationTokenOf('  Ab12_cd-34EF56gh78IJ90kl ')).toBe('Ab12_cd-34EF56gh78IJ90kl')
  expect(
    verificationTokenOf('<meta name="google-site-verification" content="Ab12_cd-34EF56gh78IJ90kl" />'),
  ).toBe('Ab12_cd-34EF56gh78IJ90kl')
  expect(verificationTokenOf('<meta name="description" content="Ab12_cd-34EF56gh78IJ90kl">')).toBeNull()
  expect(verificationTokenOf('"><script>alert(1)</script>')).toBeNull()
  expect(verificationTokenOf('corto')).toBeNull()
  expect(verificationTokenOf('con espacios dentro del código')).toBeNull()
})

test('saving writes only what changed, each with its audit row; a refusal writes nothing', async () => {
  expect(await readSeoSettings(t.db)).toEqual(SEO_SETTING_DEFAULTS)
  const first = await saveSeoSettings(
    t.db,
    form({
      seoSitemapCategories: '',
      seoRobotsExtra: 'User-agent: GPTBot\r\nDisallow: /\r\n',
      seoGoogleVerification: 'Ab12_cd-34EF56gh78IJ90kl',
    }),
    'dueno@example.co',
  )
  expect(first.changes.map((change) => change.key).sort()).toEqual([
    'seoGoogleVerification',
    'seoRobotsExtra',
    'seoSitemapCategories',
  ])
  expect(await readSeoSettings(t.db)).toEqual({
    seoSitemapProducts: true,
    seoSitemapCategories: false,
    seoRobotsExtra: 'User-agent: GPTBot\nDisallow: /',
    seoGoogleVerification: 'Ab12_cd-34EF56gh78IJ90kl',
  })
  const rows = await t.db.select().from(settingChanges).orderBy(desc(settingChanges.id)).limit(3)
  expect(rows.find((row) => row.key === 'seoSitemapCategories')).toMatchObject({
    oldValue: true,
    newValue: false,
    changedBy: 'dueno@example.co',
  })

  await expect(
    saveSeoSettings(t.db, form({ seoGoogleVerification: '<b>no</b>' }), 'dueno@example.co'),
  ).rejects.toBeInstanceOf(SeoSettingsRefused)
  expect((await readSeoSettings(t.db)).seoGoogleVerification).toBe('Ab12_cd-34EF56gh78IJ90kl')
  const again = await saveSeoSettings(
    t.db,
    form({
      seoSitemapCategories: '',
      seoRobotsExtra: 'User-agent: GPTBot\nDisallow: /',
      seoGoogleVerification: 'Ab12_cd-34EF56gh78IJ90kl',
    }),
    'dueno@example.co',
  )
  expect(again.changes).toEqual([])
})
