import { signInPageState } from '#app/modules/auth/guard.server.ts'
import { beginSignIn } from '#app/modules/auth/oidc.server.ts'
import { RETURN_PARAM } from '#app/modules/auth/messages.ts'
import { RATE_LIMITS } from '#app/modules/rate-limits/rate-limits.server.ts'
import { authOf, servicesOf } from '#app/services-context.server.ts'
import { refusedRequest } from '#app/utils/answer.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import type { Route } from './+types/login'
import { LOGIN_PATH } from '#app/utils/paths.ts'

export const meta: Route.MetaFunction = () => [
  { title: 'Iniciar sesión | Administración' },
  { name: 'robots', content: 'noindex, nofollow' },
]

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export async function loader({ request, context }: Route.LoaderArgs) {
  return signInPageState(authOf(context), request)
}

/** "Iniciar sesión con Google": state, nonce and PKCE in a cookie, then off to the provider. */
export async function action({ request, context }: Route.ActionArgs) {
  if (!(await servicesOf(context).rateLimits.take('signIn', clientAddressOf(context))))
    throw refusedRequest(RATE_LIMITS.signIn.message, 429)
  return beginSignIn(authOf(context), request)
}

export default function AdminSignIn({ loaderData }: Route.ComponentProps) {
  const { notice, error, returnTo, localProvider } = loaderData
  const action = returnTo ? `${LOGIN_PATH}?${new URLSearchParams({ [RETURN_PARAM]: returnTo })}` : LOGIN_PATH
  return (
    <main className="flex min-h-screen items-center justify-center bg-brand-50 p-4">
      <div className="w-full max-w-sm rounded-2xl bg-white p-6 text-center shadow-md">
        <img src="/favicon.svg" alt="" width={48} height={48} className="mx-auto mb-3 size-12" />
        <h1 className="mb-4 text-xl font-semibold">Administración</h1>
        {notice ? (
          <p
            role="status"
            className="mb-4 rounded-lg bg-teal-50 p-3 text-sm text-teal-900"
            data-testid="login-notice"
          >
            {notice}
          </p>
        ) : null}
        {error ? (
          <p
            role="alert"
            className="mb-4 rounded-lg bg-red-50 p-3 text-sm text-red-800"
            data-testid="login-error"
          >
            {error}
          </p>
        ) : null}
        {/* A plain form: the answer is a redirect to the provider, a full page navigation. */}
        <form method="post" action={action}>
          <button
            type="submit"
            className="flex w-full items-center justify-center gap-3 rounded-full border border-gray-300 bg-white px-5 py-2.5 font-medium text-ink shadow-sm hover:bg-gray-50"
          >
            <GoogleMark />
            Iniciar sesión con Google
          </button>
        </form>
        {localProvider ? (
          <p className="mt-4 text-xs text-gray-600">
            Modo local: un proveedor de identidad de prueba reemplaza a Google.
          </p>
        ) : null}
      </div>
    </main>
  )
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 48 48" width="20" height="20" aria-hidden="true">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  )
}
