/** Spanish texts of the stock rules (spec §5 and §8, entry and exit forms). */
export const STOCK_MESSAGES = {
  missingFields: 'Por favor, completa todos los campos antes de enviar.',
  productNotFound: 'Producto no encontrado.',
  quantity: 'La cantidad debe ser un número entero mayor o igual a 1.',
  unitCost: 'El costo unitario debe ser un valor mayor o igual a 0.',
  unitPrice: 'El precio unitario debe ser un valor mayor o igual a 0.',
  locationFormat: 'La ubicación debe tener el formato P1-C1-A1-E1-X1-Y1-Z1.',
  notEnoughStock: 'No hay suficiente stock para la salida.',
  reservedUnits: (available: number, reserved: number) =>
    `No hay suficiente stock disponible para la salida: ${reserved} unidad(es) están reservadas por pedidos y solo ${available} están disponibles.`,
  unknownLocation: (code: string) => `La ubicación ${code} no existe.`,
  notEnoughAtLocation: (code: string) => `No hay suficiente stock en la ubicación ${code}.`,
} as const
