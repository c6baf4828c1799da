import { PAYMENT_MESSAGES } from '#app/modules/payment/messages.ts'

// The checkout's texts, apart from its validators: pages import them without the validators' zod
// and DANE's municipality list.

/** Spec §5 and §8 texts, exactly. */
export const CHECKOUT_MESSAGES = {
  emptyCart: 'Debe tener al menos un producto',
  required: 'Por favor complete todos los campos.',
  overStock: 'Hay productos con cantidades superiores al stock.',
  zeroQuantity: 'Hay productos con cantidad igual a 0. Por favor, revisa tu carrito.',
  ...PAYMENT_MESSAGES,
  success: 'Pedido realizado con éxito.',
  // Ours, where the spec is silent.
  phone: 'Ingresa un teléfono válido de 10 dígitos, por ejemplo 3001234567.',
  email: 'Ingresa un correo electrónico válido.',
  department: 'Selecciona un departamento de la lista.',
  municipality: (department: string) => `Elige un municipio de ${department}.`,
  consent: 'Debes aceptar la política de tratamiento de datos personales para continuar.',
  unavailable: 'Algunos productos de tu carrito ya no están disponibles. Revisa tu carrito.',
  onlineUnavailable: 'El pago en línea no está disponible en este momento. Elige otro método de pago.',
  transferUnavailable: 'En este momento no estamos recibiendo transferencias. Elige otro método de pago.',
  noCashOnDelivery: (municipality: string, online: boolean) =>
    online
      ? `En ${municipality} no tenemos pago contra entrega. Elige otro método de pago.`
      : `En ${municipality} no tenemos pago contra entrega. Escríbenos por WhatsApp y acordamos el pago.`,
  badQuantity: (product: string) => `La cantidad de ${product} debe ser un número entero de 1 en adelante.`,
  /** The order came with another code than the summary showed: no order until the shopper sees its total. */
  codeChanged: 'Revisa el total con el código de descuento y vuelve a confirmar tu pedido.',
  /** The promotions changed between the page and the order (one started, ended or ran out). */
  totalChanged: (total: string) =>
    `El total de tu pedido cambió a ${total}: revísalo en el resumen y vuelve a confirmar tu pedido.`,
  /** The form shown again with no refusal ("Ver municipios", "Aplicar"). */
  reviewAndConfirm: 'Revisa tu pedido y confírmalo cuando esté listo.',
  nothingToPayOnline:
    'Con tus descuentos no queda nada por pagar en línea: elige pago contra entrega para confirmar tu pedido.',
} as const

/** Answers to ids that are not ours (spec-silent texts). */
export const ID_MESSAGES = {
  orderNotFound: 'Pedido no encontrado.',
  badOrder: 'El pedido no es válido.',
  badForm: 'El formulario no es válido. Recarga la página e inténtalo de nuevo.',
} as const

/** Checkouts begun and not finished: the recovery link's notices and the shop's WhatsApp message. */
export const DRAFT_MESSAGES = {
  recovered: 'Recuperamos los productos de tu pedido. Revisa tu carrito y finaliza cuando quieras.',
  linkGone:
    'Este enlace para retomar tu pedido ya no está disponible. Puedes agregar los productos de nuevo desde la tienda.',
  /** The message the owner sends by WhatsApp, with the link that refills the cart. */
  whatsapp: (input: { name: string; shop: string; items: string; link: string }) =>
    `Hola${input.name ? ` ${input.name}` : ''}, te escribimos de ${input.shop}. Vimos que dejaste tu pedido sin terminar (${input.items}). Si quieres, puedes retomarlo aquí: ${input.link} ¿Te podemos ayudar en algo?`,
} as const
