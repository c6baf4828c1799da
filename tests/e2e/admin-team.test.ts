import { beforeAll, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { ROLE_LABELS } from '#app/modules/auth/roles.ts'
import { SECURITY_MESSAGES } from '#app/modules/auth/security.ts'
import { TEAM_MESSAGES } from '#app/modules/auth/team.ts'
import { acceptNextDialog, expectMessage, signInAsAdmin } from './admin-session.ts'
import {
  baseURL,
  declinedConsentCookie,
  DESKTOP,
  gotoHydrated,
  PHONE,
  screenshotAtBothWidths,
  setupBrowser,
} from './browser.ts'

/**
 * "Usuarios" and "Seguridad" in a browser: the owner invites a Bodega member at 1280 px, who signs
 * in on a phone (390 px) and sees only Bodega's menu, and is refused Configuraciones by the server;
 * the owner makes them Ventas (their open session follows at once), closes their sessions from
 * "Seguridad" (they are sent to sign in), finds the change in the audit log, and removes them.
 */

const browser = setupBrowser()
const TAG = Date.now().toString(36)
const MEMBER = `bodega-${TAG}@vitrina.local`
const SHOTS = 'test-results/admin-team'

beforeAll(() => browser.startEachTestWith((page) => signInAsAdmin(page)))

const member = (page: Page) => page.locator(`[data-testid="team-member"][data-email="${MEMBER}"]`)
const menuLabels = async (page: Page) =>
  (await page.getByTestId('admin-menu').locator('a').allTextContents()).map((label) => label.trim())

/** The invited person's own browser, on a phone, without the owner's cookies. */
async function memberPhone(owner: Page) {
  const context = await owner.context().browser()!.newContext({
    viewport: PHONE,
    baseURL: baseURL(),
    locale: 'es-CO',
    timezoneId: 'America/Bogota',
  })
  await context.addCookies([declinedConsentCookie()])
  return context.newPage()
}

test('invite a Bodega member, their phone sees Bodega only; Ventas at once; close their sessions; remove', async () => {
  const owner = await browser.page(DESKTOP)
  let phone: Page | undefined
  try {
    await gotoHydrated(owner, '/admin/usuarios')
    await owner.getByLabel('Correo (Google)').fill(MEMBER.toUpperCase())
    await owner.getByLabel('Rol', { exact: true }).selectOption('warehouse')
    await owner.getByRole('button', { name: 'Invitar' }).click()
    await expectMessage(owner, TEAM_MESSAGES.invited(MEMBER))
    await expect
      .poll(() => member(owner).getByTestId('member-state').textContent())
      .toBe('Invitación pendiente')
    await expect.poll(() => member(owner).getByTestId('member-role').textContent()).toBe('Bodega')
    await screenshotAtBothWidths(owner, `${SHOTS}/usuarios`)

    // The invited person signs in on their phone with that address.
    phone = await memberPhone(owner)
    await signInAsAdmin(phone, 'Bodeguero', MEMBER)
    expect(await menuLabels(phone)).toEqual(
      expect.arrayContaining(['Inicio', 'Productos', 'Gestión de pedidos', 'Perfil', 'Seguridad']),
    )
    expect(await menuLabels(phone)).not.toContain('Configuraciones')
    expect(await menuLabels(phone)).not.toContain('Ventas')
    expect(await menuLabels(phone)).not.toContain('Usuarios')
    // The menu only mirrors the server: the address itself is refused.
    await gotoHydrated(phone, '/admin/configuraciones')
    await expect.poll(() => phone!.getByTestId('admin-error').textContent()).toBe(TEAM_MESSAGES.forbidden)
    await phone.screenshot({ path: `${SHOTS}/bodega-sin-permiso-phone.png`, fullPage: true })
    // The router matches an address in any case: so does the permission check.
    await gotoHydrated(phone, '/admin/CONFIGURACIONES')
    await expect.poll(() => phone!.getByTestId('admin-error').textContent()).toBe(TEAM_MESSAGES.forbidden)

    // The owner makes them Ventas: their open session follows on its next page.
    await gotoHydrated(owner, '/admin/usuarios')
    await expect.poll(() => member(owner).getByTestId('member-state').textContent()).toBe('Activo')
    await member(owner).getByLabel(`Rol de ${MEMBER}`, { exact: true }).selectOption('sales')
    await member(owner)
      .getByRole('button', { name: `Cambiar el rol de ${MEMBER}` })
      .click()
    await expectMessage(owner, TEAM_MESSAGES.roleChanged(MEMBER, 'sales'))
    await gotoHydrated(phone, '/admin/descuentos')
    await expect
      .poll(() => phone!.getByRole('heading', { level: 1 }).textContent())
      .toBe('Descuentos y Promociones')
    expect(await menuLabels(phone)).toContain('Ventas')

    // "Seguridad": the owner sees the member's session and closes all of them.
    await gotoHydrated(owner, '/admin/seguridad')
    const group = owner.locator(`[data-testid="session-group"][data-email="${MEMBER}"]`)
    await expect.poll(() => group.getByTestId('open-session').count()).toBe(1)
    expect(await group.getByTestId('open-session').textContent()).toMatch(/Chrome en Linux/)
    await screenshotAtBothWidths(owner, `${SHOTS}/seguridad`)
    await group.getByRole('button', { name: 'Cerrar todas' }).click()
    await expectMessage(owner, SECURITY_MESSAGES.sessionsClosed(1, MEMBER))
    await phone.goto('/admin/pedidos')
    await phone.waitForURL((url) => url.pathname === '/login-admin')

    // The audit log has the role change, before → after.
    await gotoHydrated(owner, `/admin/seguridad?ver=cambios&q=${encodeURIComponent(MEMBER)}`)
    await expect
      .poll(() => owner.getByTestId('audit-changes').allTextContents())
      .toContain(`${MEMBER} · Rol: ${ROLE_LABELS.warehouse} → ${ROLE_LABELS.sales}`)
    await screenshotAtBothWidths(owner, `${SHOTS}/registro`)
  } finally {
    await gotoHydrated(owner, '/admin/usuarios')
    if (await member(owner).count()) {
      const asked = acceptNextDialog(owner)
      await member(owner)
        .getByRole('button', { name: `Quitar a ${MEMBER}` })
        .click()
      await asked
      await expectMessage(owner, TEAM_MESSAGES.removed(MEMBER))
    }
    await phone?.context().close()
  }
})
