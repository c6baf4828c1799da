import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { parseDivipola } from './divipola-csv.ts'
import { DEPARTMENTS, departmentNamed } from './departments.ts'
import { MUNICIPALITIES_BY_DEPARTMENT } from './municipalities.ts'
import { municipalitiesOf, municipalityCoded, municipalityMatching, placeOf } from './places.server.ts'

const csvRows = parseDivipola(readFileSync(new URL('./divipola.csv', import.meta.url), 'utf8'))

test('the generated list holds every row of divipola.csv, and nothing else', () => {
  const generated = Object.entries(MUNICIPALITIES_BY_DEPARTMENT).flatMap(([department, list]) =>
    list.map(([code, name]) => `${department};${code};${name}`),
  )
  expect(generated.sort()).toEqual(
    csvRows.map((row) => `${row.departmentCode};${row.municipalityCode};${row.municipality}`).sort(),
  )
  expect(generated).toHaveLength(1122)
})

test("each of the shop's department names has DANE's code for that department", () => {
  const loose = (name: string) =>
    name
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase()
      .replace(/[^a-z]+/g, ' ')
  const daneName = new Map(csvRows.map((row) => [row.departmentCode, loose(row.department)]))
  for (const department of DEPARTMENTS) {
    // "San Andrés y Providencia" is DANE's "Archipiélago de San Andrés, Providencia y Santa Catalina".
    const shop = loose(department.name).replace(' y ', ' ').split(' ').filter(Boolean)
    expect(
      shop.every((word) => daneName.get(department.code)!.includes(word)),
      department.name,
    ).toBe(true)
  }
})

test("the shop's 33 departments are DANE's, each with its municipalities", () => {
  const daneCodes = [...new Set(csvRows.map((row) => row.departmentCode))].sort()
  expect(DEPARTMENTS.map((department) => department.code).sort()).toEqual(daneCodes)
  expect(municipalitiesOf('05')).toHaveLength(125)
  expect(municipalitiesOf('11')).toEqual([{ code: '11001', name: 'Bogotá, D.C.', departmentCode: '11' }])
  expect(municipalitiesOf('99')).toHaveLength(4)
  expect(municipalitiesOf('00')).toEqual([])
})

test('municipalities are listed in Spanish alphabetical order', () => {
  const names = municipalitiesOf('05').map((municipality) => municipality.name)
  expect(names.slice(0, 3)).toEqual(['Abejorral', 'Abriaquí', 'Alejandría'])
  // An accented first letter sorts as its letter, not after "Z".
  const norte = municipalitiesOf('54').map((municipality) => municipality.name)
  expect(norte[0]).toBe('Ábrego')
})

test('a code finds its municipality; a place must be a municipality of its department', () => {
  expect(municipalityCoded('05001')).toEqual({ code: '05001', name: 'Medellín', departmentCode: '05' })
  expect(municipalityCoded('5001')).toBeUndefined()
  expect(placeOf('Antioquia', '05001')?.municipality.name).toBe('Medellín')
  expect(placeOf('Bogotá D.C.', '11001')?.department.code).toBe('11')
  expect(placeOf('Cundinamarca', '05001')).toBeNull()
  expect(placeOf('Antioquia', '')).toBeNull()
  expect(placeOf('Narnia', '05001')).toBeNull()
})

test('a free-text city is matched to one municipality of its department, or none', () => {
  const antioquia = departmentNamed('Antioquia')!
  expect(municipalityMatching(antioquia, 'medellin')?.code).toBe('05001')
  expect(municipalityMatching(antioquia, '  MEDELLÍN ')?.code).toBe('05001')
  expect(municipalityMatching(antioquia, 'Bogotá')).toBeUndefined()
  expect(municipalityMatching(antioquia, '')).toBeUndefined()
  expect(municipalityMatching(departmentNamed('Bogotá D.C.')!, '')?.code).toBe('11001')
  expect(municipalityMatching(departmentNamed('Norte de Santander')!, 'Cúcuta')?.code).toBe('54001')
  expect(municipalityMatching(departmentNamed('Valle del Cauca')!, 'cali')?.code).toBe('76001')
})
