import { data } from 'react-router'
import { departmentCoded } from '#app/modules/places/departments.ts'
import { municipalitiesOf } from '#app/modules/places/places.server.ts'
import type { Route } from './+types/municipalities'

/**
 * A department's municipalities (DANE DIVIPOLA) for the checkout's select, by the department's code:
 * `/api/municipios?departamento=05`. The list changes only with DANE's, so browsers keep it a day.
 */
export async function loader({ url }: Route.LoaderArgs) {
  const department = departmentCoded(url.searchParams.get('departamento') ?? '')
  if (!department) throw data({ ok: false, message: 'Departamento no válido.' }, { status: 400 })
  return data(
    { municipalities: municipalitiesOf(department.code).map(({ code, name }) => ({ code, name })) },
    { headers: { 'Cache-Control': 'public, max-age=86400' } },
  )
}
