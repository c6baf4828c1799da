import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { LOCAL_ADMIN_EMAIL } from '#app/modules/auth/config.server.ts'
import { gotoHydrated } from './browser.ts'

/**
 * Signs in through /login-admin and the bundled provider's page, as a person would (the test
 * server runs without ADMIN_EMAILS, so the documented local address is the admin; another address
 * gets in once the team invited it). The session
 * cookie then serves every page of that browser context.
 */
export async function signInAsAdmin(page: Page, name = 'Dueña de Pruebas', email = LOCAL_ADMIN_EMAIL) {
  await gotoHydrated(page, '/login-admin')
  await page.getByRole('button', { name: 'Iniciar sesión con Google' }).click()
  await page.waitForURL((url) => url.pathname.includes('/dev-idp/interaccion/'))
  await page.getByLabel('Correo electrónico').fill(email)
  await page.getByLabel('Nombre').fill(name)
  await page.getByRole('button', { name: 'Continuar' }).click()
  await page.waitForURL((url) => url.pathname === '/admin')
}

/** A small PNG made on the spot, in the shape Playwright's setInputFiles takes. */
export async function pngFile(name: string, color: string, width = 64, height = 48) {
  const buffer = await sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer()
  return { name, mimeType: 'image/png', buffer }
}

/** Accepts the next confirm() and returns its text. */
export function acceptNextDialog(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog.message())
      void dialog.accept()
    })
  })
}

/** The form outcome shown on the page (inline; it is also toasted). */
export const formMessage = (page: Page) => page.getByTestId('form-message')

/** Waits until the page shows exactly this form outcome (pages render it after navigating). */
export async function expectMessage(page: Page, text: string) {
  await page
    .getByTestId('form-message')
    .and(page.getByText(text, { exact: true }))
    .waitFor({ timeout: 10_000 })
}

/** A PNG of random pixels (it does not compress): big enough for an upload to take a moment. */
export async function noisyPngFile(name: string, size = 420) {
  const pixels = Buffer.alloc(size * size * 3)
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.floor(Math.random() * 256)
  const buffer = await sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer()
  return { name, mimeType: 'image/png', buffer }
}
