import { Avatar } from '#app/components/admin/admin-header.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { accountDetails } from '#app/modules/auth/profile.ts'
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '#app/modules/auth/roles.ts'
import type { Route } from './+types/profile'

export const meta: Route.MetaFunction = () => [{ title: 'Perfil | Administración' }]

export async function loader({ context }: Route.LoaderArgs) {
  const admin = signedInAdminOf(context)
  return { account: accountDetails(admin), role: admin.role }
}

export default function AdminProfile({ loaderData }: Route.ComponentProps) {
  const { account, role } = loaderData
  return (
    <section aria-labelledby="profile-title" className="max-w-2xl">
      <h1 id="profile-title" className="mb-4 text-2xl font-semibold">
        Perfil
      </h1>
      <div className="rounded-xl border border-brand-100 bg-white p-4 shadow-sm">
        <div className="mb-4 flex items-center gap-4">
          <Avatar name={account.name} pictureUrl={account.pictureUrl} size={64} />
          <div className="min-w-0">
            <p className="truncate text-lg font-semibold">{account.name}</p>
            <p className="truncate text-sm text-gray-600">{account.email}</p>
            <p className="text-sm" data-testid="profile-role">
              Rol: <strong>{ROLE_LABELS[role]}</strong> · {ROLE_DESCRIPTIONS[role]}
            </p>
          </div>
        </div>
        <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[auto_1fr]" data-testid="profile-fields">
          {account.fields.map((field) => (
            <div key={field.label} className="contents">
              <dt className="text-sm font-medium text-gray-600">{field.label}</dt>
              <dd className="mb-2 break-all sm:mb-0">{field.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  )
}
