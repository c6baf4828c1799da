import { departmentNamed, type Department } from './departments.ts'
import { MUNICIPALITIES_BY_DEPARTMENT } from './municipalities.ts'

/** A municipality of DANE's DIVIPOLA list (or an island or non-municipalised area it lists). */
export type Municipality = { code: string; name: string; departmentCode: string }

const collator = new Intl.Collator('es', { sensitivity: 'base' })

const byCode = new Map<string, Municipality>(
  Object.entries(MUNICIPALITIES_BY_DEPARTMENT).flatMap(([departmentCode, list]) =>
    list.map(([code, name]) => [code, { code, name, departmentCode }] as const),
  ),
)

/** A department's municipalities in alphabetical order (Spanish), as a select lists them. */
export function municipalitiesOf(departmentCode: string): Municipality[] {
  return [...(MUNICIPALITIES_BY_DEPARTMENT[departmentCode] ?? [])]
    .map(([code, name]) => ({ code, name, departmentCode }))
    .sort((a, b) => collator.compare(a.name, b.name))
}

/** The municipality of this 5-digit DANE code ("05001"), or undefined. */
export function municipalityCoded(code: string): Municipality | undefined {
  return byCode.get(code)
}

/** Lower case, without accents or punctuation: "Bogotá, D.C." and "bogota dc" read alike. */
function looseName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9ñ]+/g, ' ')
    .trim()
}

/**
 * The municipality of the department a free-text city names ("medellin", "Santa Marta"), when one
 * and only one matches: what the order desk suggests for an order placed before municipalities
 * were asked for. A department with one municipality (Bogotá) is its own answer.
 */
export function municipalityMatching(department: Department, city: string): Municipality | undefined {
  const candidates = municipalitiesOf(department.code)
  if (candidates.length === 1) return candidates[0]
  const wanted = looseName(city)
  if (!wanted) return undefined
  const exact = candidates.filter((municipality) => looseName(municipality.name) === wanted)
  if (exact.length === 1) return exact[0]
  // DANE writes some with their longer official name ("San José de Cúcuta", "Sotará - Paispamba").
  const partial = candidates.filter((municipality) =>
    ` ${looseName(municipality.name)} `.includes(` ${wanted} `),
  )
  return partial.length === 1 ? partial[0] : undefined
}

/**
 * Where an order goes, checked: the department the shop names so and a municipality of it, both
 * by DANE code. Null when the name is not a department or the code not one of its municipalities.
 */
export function placeOf(
  departmentName: string,
  municipalityCode: string,
): { department: Department; municipality: Municipality } | null {
  const department = departmentNamed(departmentName)
  const municipality = municipalityCoded(municipalityCode)
  if (!department || !municipality || municipality.departmentCode !== department.code) return null
  return { department, municipality }
}
