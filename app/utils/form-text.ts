/** A posted field as text: '' when it is missing or a file. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}

/** Each of `names` as posted text (`formText`). */
export function formTexts<Name extends string>(form: FormData, names: readonly Name[]): Record<Name, string> {
  return Object.fromEntries(names.map((name) => [name, formText(form, name)])) as Record<Name, string>
}

/** A posted field holding JSON (a form's hidden state), parsed; undefined when absent, too long or not JSON. */
export function postedJson(raw: unknown, maxLength = 10_000): unknown {
  if (typeof raw !== 'string' || raw.length > maxLength) return undefined
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
}
