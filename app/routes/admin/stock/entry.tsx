import { StockMovementPage } from '#app/components/admin/stock-movement-form.tsx'
import { adminCan, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { stockFormPage } from '#app/modules/inventory/stock-forms.server.ts'
import { answerStockForm, auditedMovement, stockFormPageFor } from './stock-form-answer.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/entry'

export const meta: Route.MetaFunction = () => [{ title: 'Entrada de productos | Administración' }]

/** `?sku=` preselects the product (the inventory card's link); `?q=` searches the picker. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const page = await stockFormPage(servicesOf(context).database.db, url.searchParams)
  return stockFormPageFor(page, adminCan(signedInAdminOf(context), 'costs'))
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const { database, jobs } = servicesOf(context)
  const costs = adminCan(admin, 'costs')
  const noted = auditedMovement(context)
  return answerStockForm('entry', { db: database.db, jobs, by: admin.email, costs, noted }, request)
}

export default function StockEntry({ loaderData, actionData }: Route.ComponentProps) {
  return <StockMovementPage kind="entry" loaderData={loaderData} actionData={actionData} />
}
