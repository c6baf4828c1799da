import { useEffect, useRef, useState } from 'react'
import type { PLACE_FIELD_WORDS } from '#app/modules/checkout/form-values.ts'

export type MunicipalityOption = { code: string; name: string }

const selectClass = 'rounded-xl border border-brand-100 bg-white px-3 py-2 aria-invalid:border-red-500'

/** A field's refusal, beside it (`id` is what its input's aria-describedby names). */
export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <span id={id} className="text-red-600">
      {error}
    </span>
  ) : null
}

/**
 * "Departamento" and then "Municipio" (DANE DIVIPOLA). The server renders the municipalities of the
 * department the form last came back with; with scripts a new department's list is fetched from
 * `/api/municipios` and a search box filters it. Without scripts "Ver municipios" posts the form to
 * show that department's list (no order is placed), and a municipality of another department is
 * refused with that department's list.
 */
export function PlaceFields({
  departments,
  department: initialDepartment,
  municipalityCode,
  municipalities: initialMunicipalities,
  errors,
  onPlaceChange,
  words,
}: {
  /** Colombia's departments, in the spec's order (loader data, not code on the page). */
  departments: readonly string[]
  department: string
  municipalityCode: string
  /** The list a server answer brought (null: none, as on the first visit or after a lost post). */
  municipalities: MunicipalityOption[] | null
  errors: { department?: string; municipality_code?: string }
  onPlaceChange: (place: { departmentCode: string; municipalityCode: string } | null) => void
  /** The fields' words (loader data, not code on the page: `PLACE_FIELD_WORDS`). */
  words: typeof PLACE_FIELD_WORDS
}) {
  const [scripted, setScripted] = useState(false)
  const [municipalities, setMunicipalities] = useState(initialMunicipalities ?? [])
  const [selected, setSelected] = useState(
    initialMunicipalities?.length === 1 ? initialMunicipalities[0]!.code : municipalityCode,
  )
  const [query, setQuery] = useState('')
  const [failed, setFailed] = useState(false)

  // A form shown again by the server brings its own list (a new one each answer) and choice; a post
  // that got no answer brings none, and what the shopper chose stays.
  useEffect(() => {
    if (!initialMunicipalities) return
    setMunicipalities(initialMunicipalities)
    setSelected(initialMunicipalities.length === 1 ? initialMunicipalities[0]!.code : municipalityCode)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialMunicipalities])

  const departmentSelect = useRef<HTMLSelectElement>(null)
  const municipalitySelect = useRef<HTMLSelectElement>(null)
  useEffect(() => {
    setScripted(true)
    // What a shopper picked before the scripts ran: another department loads its list; a
    // municipality picked from the list the server rendered is kept.
    const picked = departmentSelect.current?.value ?? initialDepartment
    if (picked !== initialDepartment) void chooseDepartment(picked)
    else if (municipalitySelect.current?.value) setSelected(municipalitySelect.current.value)
    // Once, on the first render with scripts: later changes come through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    // A DANE municipality code starts with its department's.
    onPlaceChange(selected ? { departmentCode: selected.slice(0, 2), municipalityCode: selected } : null)
  }, [selected, onPlaceChange])

  async function chooseDepartment(name: string) {
    setQuery('')
    setFailed(false)
    setMunicipalities([])
    setSelected('')
    if (!name) return
    try {
      const response = await fetch(`/api/municipios?${new URLSearchParams({ departamento: name })}`)
      if (!response.ok) throw new Error(String(response.status))
      const list = ((await response.json()) as { municipalities: MunicipalityOption[] }).municipalities
      setMunicipalities(list)
      if (list.length === 1) setSelected(list[0]!.code)
    } catch {
      // Offline: the order can still be sent; the server answers with this department's list.
      setFailed(true)
    }
  }

  const search = query.trim().toLocaleLowerCase('es')
  const loose = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLocaleLowerCase('es')
  const shown = search
    ? municipalities.filter(
        (municipality) => loose(municipality.name).includes(loose(search)) || municipality.code === selected,
      )
    : municipalities

  return (
    <>
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">
          {words.department}
          <span aria-hidden="true"> *</span>
        </span>
        <select
          ref={departmentSelect}
          name="department"
          defaultValue={initialDepartment}
          onChange={(event) => void chooseDepartment(event.target.value)}
          aria-invalid={Boolean(errors.department)}
          aria-describedby={errors.department ? 'department-error' : undefined}
          required
          className={selectClass}
        >
          <option value="">{words.choose}</option>
          {departments.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
        <FieldError id="department-error" error={errors.department} />
      </label>
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor="municipality_code" className="font-medium">
          {words.municipality}
          <span aria-hidden="true"> *</span>
        </label>
        {scripted && municipalities.length > 8 ? (
          <input
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={words.search}
            aria-label={words.search}
            aria-controls="municipality_code"
            autoComplete="off"
            className="rounded-xl border border-brand-100 px-3 py-2"
          />
        ) : null}
        <select
          ref={municipalitySelect}
          id="municipality_code"
          name="municipality_code"
          value={selected}
          onChange={(event) => setSelected(event.target.value)}
          aria-invalid={Boolean(errors.municipality_code)}
          aria-describedby={errors.municipality_code ? 'municipality_code-error' : undefined}
          required
          autoComplete="address-level2"
          className={selectClass}
        >
          <option value="">
            {municipalities.length
              ? search && !shown.length
                ? words.noMatch
                : words.choose
              : words.departmentFirst}
          </option>
          {shown.map((municipality) => (
            <option key={municipality.code} value={municipality.code}>
              {municipality.name}
            </option>
          ))}
        </select>
        <FieldError id="municipality_code-error" error={errors.municipality_code} />
        {failed ? <span className="text-gray-600">{words.loadFailed}</span> : null}
        {/* Only the server's HTML needs it: with scripts the list comes when the department changes. */}
        <noscript>
          {import.meta.env.SSR ? (
            <button
              type="submit"
              name="intent"
              value="municipios"
              formNoValidate
              className="mt-1 self-start rounded-full border border-brand-600 px-4 py-1 text-brand-700"
            >
              Ver municipios del departamento
            </button>
          ) : null}
        </noscript>
      </div>
    </>
  )
}
