const MONTH_NAMES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
]

/** "2026-11" → "noviembre de 2026". */
export function monthLabel(month: string): string {
  const [year, number] = month.split('-')
  return `${MONTH_NAMES[Number(number) - 1]} de ${year}`
}

/** "2026-12-14" → "14 de diciembre de 2026" (a Bogotá day as a legal term's last day reads). */
export function spanishDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return `${date} de ${MONTH_NAMES[month - 1]} de ${year}`
}
