import { data } from 'react-router'
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

/** The posted form; an unreadable body is answered 400 with a Spanish message, never a 500. */
export async function requireFormData(request: Request): Promise<FormData> {
  const form = await readFormData(request)
  if (!form) throw data({ message: UNREADABLE_FORM_MESSAGE }, { status: 400 })
  return form
}
