import { expect, test } from 'vitest'
import { csvDownload, csvPesos, spreadsheetCsv } from './spreadsheet-csv.ts'

test('BOM, ";" and Windows line ends; formulas kept as text, negative amounts kept as numbers', () => {
  const csv = spreadsheetCsv(
    ['Nombre', 'Cantidad', 'Monto'],
    [
      ['=SUMA(A1)', -3, csvPesos(-1_250_50)],
      ['Ñandú; "café"', 0, csvPesos(12_500_00)],
      ['+57 300', 1, csvPesos(5)],
    ],
  )
  expect(csv).toBe(
    '\ufeffNombre;Cantidad;Monto\r\n' +
      "'=SUMA(A1);-3;-1250,50\r\n" +
      '"Ñandú; ""café""";0;12500,00\r\n' +
      "'+57 300;1;0,05\r\n",
  )
})

test('a download names its file with safe characters only and is never cached', async () => {
  const answer = csvDownload('a;b\r\n', 'ventas 2026/11 "x".csv')
  expect(answer.headers.get('Content-Disposition')).toBe('attachment; filename="ventas_2026_11__x_.csv"')
  expect(answer.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
  expect(answer.headers.get('Cache-Control')).toBe('no-store')
  expect(await answer.text()).toBe('a;b\r\n')
})
