import { Menu, X } from 'lucide-react'
import { Link } from 'react-router'

export type AdminHeaderUser = { email: string; displayName: string | null; pictureUrl: string | null }

/** Top bar of the admin area: greeting with the admin's name and picture, menu button on phones. */
export function AdminHeader({
  user,
  menuOpen,
  onToggleMenu,
}: {
  user: AdminHeaderUser
  menuOpen: boolean
  onToggleMenu: () => void
}) {
  const name = user.displayName ?? user.email
  return (
    <header className="sticky top-0 z-30 border-b border-brand-100 bg-white/95 backdrop-blur">
      <div className="flex items-center gap-3 px-4 py-3">
        <button
          type="button"
          className="rounded-lg p-2 text-brand-700 hover:bg-brand-50 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="admin-sidebar"
          aria-label={menuOpen ? 'Cerrar menú' : 'Abrir menú'}
          onClick={onToggleMenu}
          data-testid="admin-menu-toggle"
        >
          {menuOpen ? (
            <X className="size-6" aria-hidden="true" />
          ) : (
            <Menu className="size-6" aria-hidden="true" />
          )}
        </button>
        <Link
          to="/admin"
          aria-label="Administración: inicio"
          className="flex shrink-0 items-center gap-2 font-semibold text-brand-700"
        >
          <img src="/favicon.svg" alt="" width={28} height={28} className="size-7" />
          <span className="hidden sm:inline">Administración</span>
        </Link>
        <div className="ml-auto flex min-w-0 items-center gap-3">
          <p className="truncate text-sm sm:text-base" data-testid="admin-greeting">
            Hola, <strong>{name}</strong>
          </p>
          <Avatar name={name} pictureUrl={user.pictureUrl} />
        </div>
      </div>
    </header>
  )
}

export function Avatar({
  name,
  pictureUrl,
  size = 36,
}: {
  name: string
  pictureUrl: string | null
  size?: number
}) {
  if (pictureUrl) {
    return (
      <img
        src={pictureUrl}
        alt={`Foto de ${name}`}
        width={size}
        height={size}
        referrerPolicy="no-referrer"
        className="shrink-0 rounded-full object-cover"
        style={{ width: size, height: size }}
        data-testid="admin-avatar"
      />
    )
  }
  return (
    <span
      aria-hidden="true"
      className="flex shrink-0 items-center justify-center rounded-full bg-brand-600 font-semibold text-white"
      style={{ width: size, height: size }}
    >
      {name.charAt(0).toUpperCase()}
    </span>
  )
}
