import { data } from 'react-router'
import { StockMovementForm } from '#app/components/admin/stock-movement-form.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { registerExit, stockFormPage, stockRefusalField } from '#app/modules/inventory/stock-forms.server.ts'
import { EXIT_FAILURE, parseExitForm, STOCK_FORM_MESSAGES } from '#app/modules/inventory/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { failureOf } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import type { Route } from './+types/exit'

export const meta: Route.MetaFunction = () => [{ title: 'Salida de productos | Administración' }]

/** `?sku=` preselects the product (the inventory card's link); `?q=` searches the picker. */
export async function loader({ url, context }: Route.LoaderArgs) {
  return stockFormPage(servicesOf(context).database.db, url.searchParams)
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const parsed = parseExitForm(await requireFormData(request))
  if (!parsed.success) {
    const { message, fieldErrors, values } = parsed
    return data({ ok: false as const, message, fieldErrors, values, at: Date.now() }, { status: 400 })
  }
  try {
    await registerExit(servicesOf(context).database.db, servicesOf(context).jobs, parsed.data, admin.email)
    return { ok: true as const, message: STOCK_FORM_MESSAGES.exitSaved, at: Date.now() }
  } catch (thrown) {
    const { message, status } = failureOf(thrown, request, EXIT_FAILURE)
    const field = stockRefusalField(thrown)
    const fieldErrors = field ? { [field]: message } : {}
    return data(
      { ok: false as const, message, fieldErrors, values: parsed.values, at: Date.now() },
      { status },
    )
  }
}

export default function StockExit({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="stock-exit-title" className="flex flex-col gap-4">
      <h1 id="stock-exit-title" className="text-2xl font-semibold">
        Salida de productos
      </h1>
      <StockMovementForm kind="exit" loaderData={loaderData} actionData={actionData} />
    </section>
  )
}
