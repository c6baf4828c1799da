/** The kardex's columns, in order: the page's table headers and the CSV's header row. */
export const KARDEX_COLUMNS = [
  'Fecha',
  'Tipo',
  'Cantidad',
  'Precio unitario',
  'Total',
  'Recibo',
  'Nota',
  'Ubicación',
  'Stock después',
  'Costo promedio después',
  'Usuario',
] as const
