/** Spanish texts of the stock rules (spec §5, exit form). */
export const STOCK_MESSAGES = {
  notEnoughStock: 'No hay suficiente stock para la salida.',
  unknownLocation: (code: string) => `La ubicación ${code} no existe.`,
  notEnoughAtLocation: (code: string) => `No hay suficiente stock en la ubicación ${code}.`,
} as const
