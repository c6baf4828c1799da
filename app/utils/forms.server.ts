import { refusedRequest } from './answer.server.ts'
import { UNREADABLE_FORM_MESSAGE } from './form-messages.ts'

export { UNREADABLE_FORM_MESSAGE }

/** The posted form, or null when the body is not a readable form (wrong type, cut off, junk). */
export async function readFormData(request: Request): Promise<FormData | null> {
  try {
    return await request.formData()
  } catch {
    return null
  }
}

export const FORBIDDEN_CHARACTER_MESSAGE =
  'El formulario contiene un carácter no permitido. Revisa lo que escribiste e inténtalo de nuevo.'

/** A NUL byte is never typed on purpose, and PostgreSQL refuses it in any text. */
function hasNul(form: FormData): boolean {
  for (const [name, value] of form) {
    if (name.includes('\0') || (typeof value === 'string' && value.includes('\0'))) return true
  }
  return false
}

/**
 * The posted form; an unreadable body, or one with a NUL byte in any field, is answered 400 with a
 * Spanish message, never a 500. `keepNul` is for a form whose module cleans every field itself and
 * answers a bad one on the form (the checkout).
 */
export async function requireFormData(
  request: Request,
  options: { keepNul?: boolean } = {},
): Promise<FormData> {
  const form = await readFormData(request)
  if (!form) throw refusedRequest(UNREADABLE_FORM_MESSAGE, 400)
  if (!options.keepNul && hasNul(form)) throw refusedRequest(FORBIDDEN_CHARACTER_MESSAGE, 400)
  return form
}
