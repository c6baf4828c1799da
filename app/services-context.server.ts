import { createContext, type RouterContextProvider } from 'react-router'
import type { Services } from './services.server.ts'
import type { AuthContext } from './modules/auth/oidc.server.ts'

/**
 * The registry of the running shop (app/services.server.ts), handed to every loader, action and
 * middleware by the server's `getLoadContext`. Its own small module, so the key stays the same
 * object while the development server reloads the registry's code.
 */
export const servicesContext = createContext<Services>()

/** The registry this request runs with; a context without one is a bug and throws. */
export function servicesOf(context: Readonly<RouterContextProvider>): Services {
  return context.get(servicesContext)
}

/** The database, admin sign-in configuration and session limits the auth module works with. */
export function authOf(context: Readonly<RouterContextProvider>): AuthContext {
  const { adminAuth } = servicesOf(context)
  if (!adminAuth) throw new Error('El inicio de sesión de administradores no se ha configurado todavía')
  return adminAuth
}
