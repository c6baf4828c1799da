/**
 * Colombia's 32 departments and the capital district with their DANE codes, in the checkout's order.
 * `name` is how the shop writes them and orders keep them (shorter than DANE's for "Bogotá D.C." and
 * "San Andrés y Providencia"; the sales report groups by it). Small on purpose: the checkout page
 * imports it, the municipalities stay on the server (`places.server.ts`).
 */
export const DEPARTMENTS = [
  { code: '91', name: 'Amazonas' },
  { code: '05', name: 'Antioquia' },
  { code: '81', name: 'Arauca' },
  { code: '08', name: 'Atlántico' },
  { code: '11', name: 'Bogotá D.C.' },
  { code: '13', name: 'Bolívar' },
  { code: '15', name: 'Boyacá' },
  { code: '17', name: 'Caldas' },
  { code: '18', name: 'Caquetá' },
  { code: '85', name: 'Casanare' },
  { code: '19', name: 'Cauca' },
  { code: '20', name: 'Cesar' },
  { code: '27', name: 'Chocó' },
  { code: '23', name: 'Córdoba' },
  { code: '25', name: 'Cundinamarca' },
  { code: '94', name: 'Guainía' },
  { code: '95', name: 'Guaviare' },
  { code: '41', name: 'Huila' },
  { code: '44', name: 'La Guajira' },
  { code: '47', name: 'Magdalena' },
  { code: '50', name: 'Meta' },
  { code: '52', name: 'Nariño' },
  { code: '54', name: 'Norte de Santander' },
  { code: '86', name: 'Putumayo' },
  { code: '63', name: 'Quindío' },
  { code: '66', name: 'Risaralda' },
  { code: '88', name: 'San Andrés y Providencia' },
  { code: '68', name: 'Santander' },
  { code: '70', name: 'Sucre' },
  { code: '73', name: 'Tolima' },
  { code: '76', name: 'Valle del Cauca' },
  { code: '97', name: 'Vaupés' },
  { code: '99', name: 'Vichada' },
] as const

export type Department = (typeof DEPARTMENTS)[number]

/** The department the shop writes so ("Antioquia"), or undefined. */
export function departmentNamed(name: string): Department | undefined {
  return DEPARTMENTS.find((department) => department.name === name)
}

/** The department of this 2-digit DANE code ("05"), or undefined. */
export function departmentCoded(code: string): Department | undefined {
  return DEPARTMENTS.find((department) => department.code === code)
}
