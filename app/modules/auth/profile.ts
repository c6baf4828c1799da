/** An admin's account as its session stores it. */
export type AdminAccount = {
  email: string
  displayName: string | null
  pictureUrl: string | null
  profile: Record<string, unknown>
  createdAt: Date
  expiresAt: Date
}

/** The signed-in account as the provider describes it (spec §3 "Admin user" fields it gives). */
export type AccountDetails = {
  name: string
  email: string
  pictureUrl: string | null
  fields: { label: string; value: string }[]
}

const dateTime = new Intl.DateTimeFormat('es-CO', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'America/Bogota',
})

/** Labelled, display-ready fields (formatted on the server, so the page hydrates identically). */
export function accountDetails(admin: AdminAccount): AccountDetails {
  const claim = (name: string) => {
    const value = admin.profile[name]
    return typeof value === 'string' && value ? value : null
  }
  const fields: { label: string; value: string | null }[] = [
    { label: 'Correo electrónico', value: admin.email },
    { label: 'Nombre', value: admin.displayName },
    { label: 'Nombres', value: claim('given_name') },
    { label: 'Apellidos', value: claim('family_name') },
    { label: 'Foto', value: admin.pictureUrl },
    { label: 'Correo verificado', value: admin.profile.email_verified === true ? 'Sí' : 'No' },
    { label: 'Proveedor', value: claim('iss') },
    { label: 'Identificador de la cuenta', value: claim('sub') },
    { label: 'Dominio', value: claim('hd') },
    { label: 'Idioma', value: claim('locale') },
    { label: 'Sesión iniciada', value: dateTime.format(admin.createdAt) },
    { label: 'La sesión vence', value: dateTime.format(admin.expiresAt) },
  ]
  return {
    name: admin.displayName ?? admin.email,
    email: admin.email,
    pictureUrl: admin.pictureUrl,
    fields: fields.filter((field): field is { label: string; value: string } => field.value !== null),
  }
}
