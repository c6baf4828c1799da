export const CUSTOMER_FIELDS = [
  'name',
  'last_name',
  'identification_type',
  'identification_number',
  'phone',
  'email',
  'address',
  'department',
  'municipality_code',
] as const

export type CheckoutFormValues = Record<(typeof CUSTOMER_FIELDS)[number], string> & {
  payment_method: string
  /** "Código de descuento", as typed. */
  discount_code: string
  consent: boolean
}

/**
 * What the shopper typed in the checkout form, junk made empty: read by the server, and by the page
 * to show the form again as typed when its post got no answer.
 */
export function checkoutValuesOf(form: FormData): CheckoutFormValues {
  return {
    ...(Object.fromEntries(
      CUSTOMER_FIELDS.map((field) => [field, String(form.get(field) ?? '').slice(0, 300)]),
    ) as Record<(typeof CUSTOMER_FIELDS)[number], string>),
    payment_method: String(form.get('payment_method') ?? '').slice(0, 30),
    discount_code: String(form.get('discount_code') ?? '').slice(0, 300),
    consent: form.get('consent') === 'on',
  }
}

/** The buyer's text fields, handed to the page by its loader: their labels stay out of
 * the page's JavaScript. */
export const CHECKOUT_TEXT_FIELDS: {
  name: keyof CheckoutFormValues
  label: string
  type?: string
  autoComplete?: string
  required?: boolean
}[] = [
  { name: 'name', label: 'Nombre', autoComplete: 'given-name', required: true },
  { name: 'last_name', label: 'Apellido', autoComplete: 'family-name' },
  { name: 'phone', label: 'Teléfono (WhatsApp)', type: 'tel', autoComplete: 'tel-national', required: true },
  { name: 'email', label: 'Correo electrónico', type: 'email', autoComplete: 'email' },
  { name: 'address', label: 'Dirección', autoComplete: 'street-address', required: true },
  { name: 'identification_number', label: 'Número de identificación', autoComplete: 'off' },
]

/**
 * Words of the checkout handed to the page by its loader (the page's JavaScript stays within its
 * budget): headings, the consent box's (Ley 1581 de 2012) around the link to the data policy, and
 * what the place fields say when the list did not load.
 */
export const CHECKOUT_WORDS = {
  documentType: 'Tipo de documento',
  paymentMethod: 'Método de pago',
  summary: 'Resumen del pedido',
  yourOrder: 'Tu pedido',
  emptyCart: 'Tu carrito está vacío.',
  confirm: 'Confirmar pedido',
  sending: 'Enviando…',
  before: 'Autorizo el tratamiento de mis datos personales según la',
  link: 'política de tratamiento de datos',
  after: '(Ley 1581 de 2012).',
}

/** The place fields' words (`PlaceFields`), handed to the page by the checkout's loader. */
export const PLACE_FIELD_WORDS = {
  department: 'Departamento',
  municipality: 'Municipio',
  choose: 'Selecciona…',
  search: 'Buscar municipio',
  noMatch: 'Ningún municipio coincide',
  departmentFirst: 'Primero elige el departamento',
  loadFailed: 'No pudimos cargar los municipios. Confirma el pedido y te mostraremos la lista.',
}
