import { Form, useRouteLoaderData, type FormProps } from 'react-router'
import { CSRF_FIELD } from '#app/modules/auth/csrf.ts'

/** Route id of app/routes/admin/layout.tsx, whose loader hands out the anti-forgery token. */
export const ADMIN_LAYOUT_ROUTE_ID = 'routes/admin/layout'

/** The signed-in admin's anti-forgery token (send it as the `X-CSRF-Token` header with fetch). */
export function useCsrfToken(): string {
  const data = useRouteLoaderData(ADMIN_LAYOUT_ROUTE_ID) as { admin?: { csrfToken?: string } } | undefined
  return data?.admin?.csrfToken ?? ''
}

/** The hidden field every admin form post must carry; `requireAdmin` refuses posts without it. */
export function CsrfField() {
  return <input type="hidden" name={CSRF_FIELD} value={useCsrfToken()} />
}

/** A React Router `<Form>` with the anti-forgery field already in it: use it for every admin post. */
export function AdminForm({ children, ...props }: FormProps) {
  return (
    <Form {...props}>
      <CsrfField />
      {children}
    </Form>
  )
}
