import { StockMovementPage } from '#app/components/admin/stock-movement-form.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { stockFormPage } from '#app/modules/inventory/stock-forms.server.ts'
import { answerStockForm } from './stock-form-answer.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/entry'

export const meta: Route.MetaFunction = () => [{ title: 'Entrada de productos | Administración' }]

/** `?sku=` preselects the product (the inventory card's link); `?q=` searches the picker. */
export async function loader({ url, context }: Route.LoaderArgs) {
  return stockFormPage(servicesOf(context).database.db, url.searchParams)
}

export async function action({ request, context }: Route.ActionArgs) {
  const by = signedInAdminOf(context).email
  const { database, jobs } = servicesOf(context)
  return answerStockForm('entry', { db: database.db, jobs, by }, request)
}

export default function StockEntry({ loaderData, actionData }: Route.ComponentProps) {
  return <StockMovementPage kind="entry" loaderData={loaderData} actionData={actionData} />
}
