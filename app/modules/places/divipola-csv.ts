/** One row of DANE's DIVIPOLA list as `divipola.csv` holds it (codes as text: leading zeros matter). */
export type DivipolaRow = {
  departmentCode: string
  department: string
  municipalityCode: string
  municipality: string
}

/** Reads `divipola.csv` (`;`-separated, with its header); a malformed row stops with its line. */
export function parseDivipola(csv: string): DivipolaRow[] {
  const [header, ...lines] = csv.trim().split(/\r?\n/)
  if (header !== 'codigo_departamento;departamento;codigo_municipio;municipio') {
    throw new Error(`divipola.csv: encabezado inesperado "${header}"`)
  }
  return lines.map((line, index) => {
    const [departmentCode = '', department = '', municipalityCode = '', municipality = ''] = line.split(';')
    if (!/^\d{2}$/.test(departmentCode) || !/^\d{5}$/.test(municipalityCode) || !municipality) {
      throw new Error(`divipola.csv, línea ${index + 2}: fila no válida "${line}"`)
    }
    if (!municipalityCode.startsWith(departmentCode)) {
      throw new Error(`divipola.csv, línea ${index + 2}: ${municipalityCode} no es de ${departmentCode}`)
    }
    return { departmentCode, department, municipalityCode, municipality }
  })
}
