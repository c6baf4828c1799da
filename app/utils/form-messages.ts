/** Shown when a form post cannot be read (wrong type, cut off, junk); the browser shows it too. */
export const UNREADABLE_FORM_MESSAGE =
  'No pudimos leer el formulario. Recarga la página e inténtalo de nuevo.'
