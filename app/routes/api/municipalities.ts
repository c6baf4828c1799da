import { data } from 'react-router'
import { departmentCoded, departmentNamed } from '#app/modules/places/departments.ts'
import { municipalitiesOf } from '#app/modules/places/places.server.ts'
import type { Route } from './+types/municipalities'

/**
 * A department's municipalities (DANE DIVIPOLA) for the checkout's select, by the department's code
 * or its name as the shop writes it: `/api/municipios?departamento=05` or `?departamento=Antioquia`. The list changes only with DANE's, so browsers keep it a day.
 */
export async function loader({ url }: Route.LoaderArgs) {
  const asked = url.searchParams.get('departamento') ?? ''
  const department = departmentCoded(asked) ?? departmentNamed(asked)
  if (!department) throw data({ ok: false, message: 'Departamento no válido.' }, { status: 400 })
  return data(
    { municipalities: municipalitiesOf(department.code).map(({ code, name }) => ({ code, name })) },
    { headers: { 'Cache-Control': 'public, max-age=86400' } },
  )
}
