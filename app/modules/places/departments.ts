/**
 * Colombia's 32 departments and the capital district with their DANE codes, in the checkout's order.
 * `name` is how the shop writes them and orders keep them (shorter than DANE's for "Bogotá D.C." and
 * "San Andrés y Providencia"; the sales report groups by it). Small on purpose: the checkout page
 * imports the names, the municipalities stay on the server (`places.server.ts`).
 */
/** The 33 departments in the checkout's order, as the shop writes them (all the page needs). */
export const DEPARTMENT_NAMES = [
  'Amazonas',
  'Antioquia',
  'Arauca',
  'Atlántico',
  'Bogotá D.C.',
  'Bolívar',
  'Boyacá',
  'Caldas',
  'Caquetá',
  'Casanare',
  'Cauca',
  'Cesar',
  'Chocó',
  'Córdoba',
  'Cundinamarca',
  'Guainía',
  'Guaviare',
  'Huila',
  'La Guajira',
  'Magdalena',
  'Meta',
  'Nariño',
  'Norte de Santander',
  'Putumayo',
  'Quindío',
  'Risaralda',
  'San Andrés y Providencia',
  'Santander',
  'Sucre',
  'Tolima',
  'Valle del Cauca',
  'Vaupés',
  'Vichada',
] as const

/** Their DANE codes, in the same order (places.test.ts proves each is DANE's for that name). */
const DEPARTMENT_CODES = [
  '91',
  '05',
  '81',
  '08',
  '11',
  '13',
  '15',
  '17',
  '18',
  '85',
  '19',
  '20',
  '27',
  '23',
  '25',
  '94',
  '95',
  '41',
  '44',
  '47',
  '50',
  '52',
  '54',
  '86',
  '63',
  '66',
  '88',
  '68',
  '70',
  '73',
  '76',
  '97',
  '99',
] as const

export const DEPARTMENTS = /* @__PURE__ */ DEPARTMENT_NAMES.map((name, index) => ({
  name,
  code: DEPARTMENT_CODES[index]!,
}))

export type Department = { name: (typeof DEPARTMENT_NAMES)[number]; code: (typeof DEPARTMENT_CODES)[number] }

/** The department the shop writes so ("Antioquia"), or undefined. */
export function departmentNamed(name: string): Department | undefined {
  return DEPARTMENTS.find((department) => department.name === name)
}

/** The department of this 2-digit DANE code ("05"), or undefined. */
export function departmentCoded(code: string): Department | undefined {
  return DEPARTMENTS.find((department) => department.code === code)
}
