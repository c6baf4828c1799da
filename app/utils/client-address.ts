import { createContext, type RouterContextProvider } from 'react-router'

/**
 * The client's network address as Express reads it (`req.ip`: the socket's, or the one a trusted
 * proxy forwarded), handed to loaders and actions through the router context.
 */
export const clientAddressContext = createContext<string | null>(null)

export function clientAddressOf(context: Readonly<RouterContextProvider>): string | null {
  return context.get(clientAddressContext)
}
