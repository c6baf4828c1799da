import { data } from 'react-router'
import { StockMovementForm } from '#app/components/admin/stock-movement-form.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { registerEntry, stockFormPage, stockRefusalField } from '#app/modules/inventory/stock-forms.server.ts'
import { ENTRY_FAILURE, parseEntryForm, STOCK_FORM_MESSAGES } from '#app/modules/inventory/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { failureOf } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import type { Route } from './+types/entry'

export const meta: Route.MetaFunction = () => [{ title: 'Entrada de productos | Administración' }]

/** `?sku=` preselects the product (the inventory card's link); `?q=` searches the picker. */
export async function loader({ url, context }: Route.LoaderArgs) {
  return stockFormPage(servicesOf(context).database.db, url.searchParams)
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const parsed = parseEntryForm(await requireFormData(request))
  if (!parsed.success) {
    const { message, fieldErrors, values } = parsed
    return data({ ok: false as const, message, fieldErrors, values, at: Date.now() }, { status: 400 })
  }
  try {
    await registerEntry(servicesOf(context).database.db, servicesOf(context).jobs, parsed.data, admin.email)
    return { ok: true as const, message: STOCK_FORM_MESSAGES.entrySaved, at: Date.now() }
  } catch (thrown) {
    const { message, status } = failureOf(thrown, request, ENTRY_FAILURE)
    const field = stockRefusalField(thrown)
    const fieldErrors = field ? { [field]: message } : {}
    return data(
      { ok: false as const, message, fieldErrors, values: parsed.values, at: Date.now() },
      { status },
    )
  }
}

export default function StockEntry({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="stock-entry-title" className="flex flex-col gap-4">
      <h1 id="stock-entry-title" className="text-2xl font-semibold">
        Entrada de productos
      </h1>
      <StockMovementForm kind="entry" loaderData={loaderData} actionData={actionData} />
    </section>
  )
}
