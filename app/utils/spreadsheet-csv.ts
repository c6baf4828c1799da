import { stringify } from 'csv-stringify/sync'

/** A number already written the spreadsheet's way ("-12500,50"): never escaped as a formula. */
export class CsvNumber {
  constructor(readonly text: string) {}
}

export type CsvCell = string | number | CsvNumber

/** Text a spreadsheet would run as a formula ("=…", "+…", "-…", "@…"), made plain text. */
const FORMULA_START = /^[=+\-@\t\r]/

function cellText(cell: CsvCell): string {
  if (cell instanceof CsvNumber) return cell.text
  if (typeof cell === 'number') return String(cell)
  return FORMULA_START.test(cell) ? `'${cell}` : cell
}

/**
 * CSV the way a spreadsheet in Colombian Spanish opens it: UTF-8 with a byte-order mark (so Excel
 * reads the accents), `;` between fields (the comma is its decimal mark), Windows line ends, and any
 * text that starts like a formula kept as text (a receipt typed "=…" must not run). Numbers, and
 * amounts from `csvPesos`, stay numbers even when negative.
 */
export function spreadsheetCsv(columns: readonly string[], records: readonly (readonly CsvCell[])[]): string {
  return stringify(
    records.map((record) => record.map(cellText)),
    {
      header: true,
      columns: [...columns],
      delimiter: ';',
      bom: true,
      record_delimiter: 'windows',
    },
  )
}

/**
 * Centavos as pesos with two decimals and a decimal comma ("12500,50"), no thousands separator:
 * what a spreadsheet set to Colombian Spanish reads as a number.
 */
export const csvPesos = (centavos: number) => new CsvNumber((centavos / 100).toFixed(2).replace('.', ','))

/** A CSV download answer; the file name keeps only safe characters. */
export function csvDownload(csv: string, fileName: string): Response {
  const name = fileName.replace(/[^\w.-]/g, '_')
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'no-store',
    },
  })
}
