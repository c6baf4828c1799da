import path from 'node:path'
import { z } from 'zod'

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional()

const url = z.url({ message: 'debe ser una URL completa (http:// o https://)' })
const optionalUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(url.optional())
  .optional()

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )

const emailList = commaList.pipe(z.array(z.email({ message: 'contiene un correo no válido' })))

const pesos = (fallback: number) =>
  z.coerce
    .number({ message: 'debe ser un número de pesos' })
    .int({ message: 'debe ser un número entero de pesos' })
    .min(0, { message: 'no puede ser negativo' })
    .default(fallback)

const FACTUS_RANGE_MESSAGE = 'debe ser el número (id) del rango de numeración en Factus, p. ej. 8'

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** `production` is a real deployment: strict secrets, no local sign-in provider (ADR 0001). */
  APP_ENV: z.enum(['local', 'production']).default('local'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalUrl,
  REDIRECT_HOSTS: commaList.pipe(
    z.array(
      z
        .string()
        .transform((host) => host.toLowerCase())
        .refine((host) => !/:\d*$/.test(host), {
          message:
            'no puede llevar puerto (se compara solo el nombre del host de la solicitud); escribe p. ej. tienda-vieja.web.app',
        })
        .refine((host) => /^[a-z0-9.-]+$/.test(host), {
          message: 'debe ser un nombre de host sin esquema ni ruta, p. ej. tienda-vieja.web.app',
        }),
    ),
  ),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
  SEED_DEMO: z.enum(['0', '1']).default('1'),
  /** What the JSON log (server/logger.js) keeps: `info` and worse unless asked otherwise. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `npm run bench` only: serve the minimal page every storefront page is compared against. */
  BENCH_BASELINE_PAGE: z.enum(['0', '1']).default('0'),
  SESSION_SECRET: optionalString,
  ADMIN_EMAILS: emailList,
  OWNER_EMAIL: z
    .email()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OIDC_ISSUER: optionalUrl,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  MP_ACCESS_TOKEN: optionalString,
  MP_WEBHOOK_SECRET: optionalString,
  MP_API_URL: url.default('https://api.mercadopago.com'),
  /**
   * Wompi (PSE, Nequi, Botón Bancolombia, Daviplata, cards): WOMPI_PUBLIC_KEY turns it on and needs
   * the other three keys. The API is the sandbox for `pub_test_` keys and production otherwise,
   * unless WOMPI_API_URL says; WOMPI_CHECKOUT_URL is the Web Checkout page.
   */
  WOMPI_PUBLIC_KEY: optionalString,
  WOMPI_PRIVATE_KEY: optionalString,
  WOMPI_INTEGRITY_SECRET: optionalString,
  WOMPI_EVENTS_SECRET: optionalString,
  WOMPI_API_URL: optionalUrl,
  WOMPI_CHECKOUT_URL: url.default('https://checkout.wompi.co/p/'),
  WHATSAPP_TOKEN: optionalString,
  WHATSAPP_PHONE_NUMBER_ID: optionalString,
  WHATSAPP_API_URL: url.default('https://graph.facebook.com/v21.0'),
  WHATSAPP_NOTIFY_NUMBERS: commaList,
  WHATSAPP_CONTACT_NUMBER: z
    .string()
    .trim()
    .regex(/^\d{7,15}$/, { message: 'debe tener solo dígitos con el indicativo, p. ej. 573001234567' })
    .default('573001234567'),
  META_PIXEL_ID: optionalString,
  META_CAPI_TOKEN: optionalString,
  META_API_URL: url.default('https://graph.facebook.com/v21.0'),
  /** Routes server events to the "Test events" tool of Meta's Events Manager. */
  META_TEST_EVENT_CODE: optionalString,
  /** The pixel's script (tests serve a local stand-in). */
  META_PIXEL_SCRIPT_URL: url.default('https://connect.facebook.net/en_US/fbevents.js'),
  ML_CLIENT_ID: optionalString,
  ML_CLIENT_SECRET: optionalString,
  /** The first refresh token of the seller's authorisation; later pairs live in the database. */
  ML_REFRESH_TOKEN: optionalString,
  ML_ACCESS_TOKEN: optionalString,
  ML_SELLER_ID: optionalString,
  ML_API_URL: url.default('https://api.mercadolibre.com'),
  SHOPIFY_SHOP: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, {
        message: 'debe ser el dominio de la tienda, p. ej. mi-tienda.myshopify.com',
      })
      .optional(),
  ),
  SHOPIFY_ADMIN_TOKEN: optionalString,
  /** Another origin in place of https://{SHOPIFY_SHOP} (a local stand-in in tests). */
  SHOPIFY_API_URL: optionalUrl,
  SHOPIFY_LOCATION_ID: optionalString.pipe(
    z
      .string()
      .regex(/^(gid:\/\/shopify\/Location\/)?\d+$/, {
        message: 'debe ser el número de la ubicación o su gid://shopify/Location/…',
      })
      .optional(),
  ),
  SHOPIFY_API_VERSION: z
    .string()
    .trim()
    .regex(/^(\d{4}-(01|04|07|10)|unstable)$/, { message: 'debe ser una versión como 2026-10' })
    .default('2026-10'),
  /**
   * Factus (DIAN electronic invoices): production by default; DIAN's habilitación runs on the
   * sandbox, https://api-sandbox.factus.com.co. All of the FACTUS_* credentials, or none (no invoices).
   */
  FACTUS_API_URL: url.default('https://api.factus.com.co'),
  FACTUS_CLIENT_ID: optionalString,
  FACTUS_CLIENT_SECRET: optionalString,
  /** The Factus API user's e-mail and password (OAuth password grant). */
  FACTUS_USERNAME: optionalString,
  FACTUS_PASSWORD: optionalString,
  /** Factus's id of the invoices' numbering range (GET /v1/numbering-ranges), not its prefix. */
  FACTUS_NUMBERING_RANGE_ID: optionalString.pipe(
    z
      .string()
      .regex(/^[1-9]\d*$/, { message: FACTUS_RANGE_MESSAGE })
      .transform(Number)
      .optional(),
  ),
  /** The credit notes' range; Factus takes its only active one when not given. */
  FACTUS_CREDIT_NOTE_NUMBERING_RANGE_ID: optionalString.pipe(
    z
      .string()
      .regex(/^[1-9]\d*$/, { message: FACTUS_RANGE_MESSAGE })
      .transform(Number)
      .optional(),
  ),
  /**
   * Envia (carrier quotes, guías and tracking): production by default; its sandbox is
   * https://api-test.envia.com. ENVIA_TOKEN turns carriers on; ENVIA_CARRIERS lists the carriers
   * quoted (Envia's codes, comma-separated).
   */
  ENVIA_API_URL: url.default('https://api.envia.com'),
  ENVIA_TOKEN: optionalString,
  ENVIA_CARRIERS: z
    .string()
    .trim()
    .default('coordinadora,servientrega')
    .transform((list) =>
      list
        .split(',')
        .map((code) => code.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(
          z.string().regex(/^[a-z0-9_-]+$/, {
            message: 'debe ser una lista de códigos, p. ej. coordinadora,servientrega',
          }),
        )
        .min(1, { message: 'nombra al menos una transportadora' }),
    ),
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().default('auto'),
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_PUBLIC_URL: optionalUrl,
  ORDER_PAYMENT_TIMEOUT_HOURS: z.coerce
    .number({ message: 'debe ser un número de horas' })
    .positive({ message: 'debe ser mayor que 0' })
    .default(48),
  /** Unconfirmed cash-on-delivery orders give their units back after this many hours. */
  COD_CONFIRMATION_HOURS: z.coerce
    .number({ message: 'debe ser un número de horas' })
    .positive({ message: 'debe ser mayor que 0' })
    .default(48),
  /** Open orders nobody paid or confirmed (either method) one phone may hold. */
  COD_MAX_OPEN_ORDERS: z.coerce
    .number({ message: 'debe ser un número entero' })
    .int({ message: 'debe ser un número entero' })
    .min(1, { message: 'debe ser al menos 1' })
    .default(2),
  /** Units those orders may hold together. */
  COD_MAX_OPEN_UNITS: z.coerce
    .number({ message: 'debe ser un número entero' })
    .int({ message: 'debe ser un número entero' })
    .min(1, { message: 'debe ser al menos 1' })
    .default(10),
  /** The same, per client network: higher, since carrier NAT puts many shoppers behind one address. */
  COD_MAX_OPEN_ORDERS_PER_ADDRESS: z.coerce
    .number({ message: 'debe ser un número entero' })
    .int({ message: 'debe ser un número entero' })
    .min(1, { message: 'debe ser al menos 1' })
    .default(6),
  COD_MAX_OPEN_UNITS_PER_ADDRESS: z.coerce
    .number({ message: 'debe ser un número entero' })
    .int({ message: 'debe ser un número entero' })
    .min(1, { message: 'debe ser al menos 1' })
    .default(30),
  /**
   * Multiplies every per-client request limit (`app/modules/rate-limits`): browser tests send a
   * whole suite from one address. Leave it at 1 in a shop.
   */
  RATE_LIMIT_SCALE: z.coerce
    .number({ message: 'debe ser un número entero' })
    .int({ message: 'debe ser un número entero' })
    .min(1, { message: 'debe ser al menos 1' })
    .default(1),
  SHIPPING_COST: pesos(0),
  FREE_SHIPPING_THRESHOLD: pesos(100000),
  STORE_NAME: z.string().default('Vitrina Accesorios'),
  SELLER_LEGAL_NAME: z.string().default('Vitrina Accesorios S.A.S.'),
  SELLER_NIT: z.string().default('901.234.567-8'),
  SELLER_ADDRESS: z.string().default('Calle 10 # 20-30, Medellín, Antioquia'),
  SELLER_EMAIL: z.email().default('contacto@vitrina.example'),
  /** Ley 1480, art. 50: the delivery time the footer promises. */
  DELIVERY_TIME: z
    .string()
    .trim()
    .min(1, { message: 'no puede estar vacío' })
    .default('Entrega de 1 a 5 días hábiles después de confirmar el pedido.'),
})

export type Env = z.infer<typeof EnvSchema> & { dataDir: string; publicUrl: string }

/** Reads and validates the environment; throws an Error naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source)
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  - ${issue.path.join('.') || '(entorno)'}: ${issue.message}`,
    )
    throw new Error(`Configuración no válida:\n${lines.join('\n')}`)
  }
  const env = result.data
  // Half a sign-in configuration would silently fall back to the local provider: refuse it.
  const signIn = [env.OIDC_ISSUER, env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET]
  const partial = signIn.some(Boolean) && !(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET)
  if (partial && env.APP_ENV !== 'production') {
    const missing = ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'].filter(
      (name) => !env[name as keyof typeof env],
    )
    throw new Error(
      `Configuración incompleta del inicio de sesión de administradores:\n${missing.map((m) => `  - ${m} es obligatorio`).join('\n')}`,
    )
  }
  // Without PUBLIC_URL the redirect would send shoppers to http://localhost.
  if (env.REDIRECT_HOSTS.length && !env.PUBLIC_URL) {
    throw new Error(
      'Configuración incompleta:\n  - PUBLIC_URL es obligatorio cuando REDIRECT_HOSTS está definido (es el destino de la redirección)',
    )
  }
  // A channel with some settings is meant to be on: refuse to start it half configured.
  const channelGaps = missingChannelSettings(env)
  if (channelGaps.length) {
    throw new Error(
      `Configuración incompleta de los canales de venta:\n${channelGaps.map((m) => `  - ${m}`).join('\n')}`,
    )
  }
  // Half of Wompi's keys would take payments it cannot confirm: all of them or none.
  const wompiGaps = missingWompiSettings(env)
  if (wompiGaps.length) {
    throw new Error(`Configuración incompleta de Wompi:\n${wompiGaps.map((m) => `  - ${m}`).join('\n')}`)
  }
  // Half an invoicing configuration would fail every invoice: all of it or none.
  const invoicingGaps = missingInvoicingSettings(env)
  if (invoicingGaps.length) {
    throw new Error(
      `Configuración incompleta de la facturación electrónica (Factus):\n${invoicingGaps.map((m) => `  - ${m}`).join('\n')}`,
    )
  }
  if (env.APP_ENV === 'production') {
    const missing = requiredInProduction(env)
    if (missing.length) {
      throw new Error(
        `Configuración incompleta para producción:\n${missing.map((m) => `  - ${m}`).join('\n')}`,
      )
    }
  }
  return {
    ...env,
    dataDir: path.resolve(env.DATA_DIR),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
  }
}

type ParsedEnv = z.infer<typeof EnvSchema>

/** MercadoLibre is on as soon as any of its settings is given (ML_API_URL has a default). */
function mercadoLibreIsOn(env: ParsedEnv): boolean {
  return Boolean(
    env.ML_CLIENT_ID ||
    env.ML_CLIENT_SECRET ||
    env.ML_REFRESH_TOKEN ||
    env.ML_ACCESS_TOKEN ||
    env.ML_SELLER_ID,
  )
}

/** Shopify is on as soon as any of its settings is given (the version has a default). */
function shopifyIsOn(env: ParsedEnv): boolean {
  return Boolean(
    env.SHOPIFY_SHOP || env.SHOPIFY_API_URL || env.SHOPIFY_ADMIN_TOKEN || env.SHOPIFY_LOCATION_ID,
  )
}

/** What a channel that is on still lacks, in any environment: a half-set channel would fail every job. */
function missingChannelSettings(env: ParsedEnv): string[] {
  const missing: string[] = []
  if (mercadoLibreIsOn(env)) {
    const needed = {
      ML_CLIENT_ID: env.ML_CLIENT_ID,
      ML_CLIENT_SECRET: env.ML_CLIENT_SECRET,
      ML_REFRESH_TOKEN: env.ML_REFRESH_TOKEN,
      ML_SELLER_ID: env.ML_SELLER_ID,
    }
    for (const [name, value] of Object.entries(needed))
      if (!value) missing.push(`${name} es obligatorio para sincronizar el stock con MercadoLibre`)
    // The tokens MercadoLibre hands out are kept encrypted with a key derived from it (ADR 0010).
    if (!env.SESSION_SECRET)
      missing.push('SESSION_SECRET es obligatorio con MercadoLibre (cifra los tokens guardados)')
  }
  if (shopifyIsOn(env)) {
    if (!env.SHOPIFY_SHOP && !env.SHOPIFY_API_URL)
      missing.push('SHOPIFY_SHOP es obligatorio para sincronizar el stock con Shopify')
    if (!env.SHOPIFY_ADMIN_TOKEN)
      missing.push('SHOPIFY_ADMIN_TOKEN es obligatorio para sincronizar el stock con Shopify')
    if (!env.SHOPIFY_LOCATION_ID)
      missing.push('SHOPIFY_LOCATION_ID es obligatorio para sincronizar el stock con Shopify')
  }
  return missing
}

const WOMPI_KEYS = [
  'WOMPI_PUBLIC_KEY',
  'WOMPI_PRIVATE_KEY',
  'WOMPI_INTEGRITY_SECRET',
  'WOMPI_EVENTS_SECRET',
] as const

/** What a Wompi configuration that is on (any key given) still lacks, in any environment. */
function missingWompiSettings(env: ParsedEnv): string[] {
  if (!WOMPI_KEYS.some((name) => env[name] !== undefined)) return []
  return WOMPI_KEYS.filter((name) => env[name] === undefined).map(
    (name) => `${name} es obligatorio para cobrar con Wompi`,
  )
}

/** The Factus settings that make invoicing work; the credit notes' range is optional. */
const FACTUS_REQUIRED = [
  'FACTUS_CLIENT_ID',
  'FACTUS_CLIENT_SECRET',
  'FACTUS_USERNAME',
  'FACTUS_PASSWORD',
  'FACTUS_NUMBERING_RANGE_ID',
] as const

/** Invoicing is on as soon as any Factus credential or range is given (FACTUS_API_URL has a default). */
export function invoicingIsOn(
  env: Pick<ParsedEnv, (typeof FACTUS_REQUIRED)[number] | 'FACTUS_CREDIT_NOTE_NUMBERING_RANGE_ID'>,
) {
  return (
    FACTUS_REQUIRED.some((name) => env[name] !== undefined) ||
    env.FACTUS_CREDIT_NOTE_NUMBERING_RANGE_ID !== undefined
  )
}

/** What an invoicing configuration that is on still lacks, in any environment. */
function missingInvoicingSettings(env: ParsedEnv): string[] {
  if (!invoicingIsOn(env)) return []
  return FACTUS_REQUIRED.filter((name) => env[name] === undefined).map(
    (name) => `${name} es obligatorio para emitir facturas electrónicas con Factus`,
  )
}

/** A configured feature whose secret is missing must stop a production start, not fail later. */
function requiredInProduction(env: ParsedEnv): string[] {
  const missing: string[] = []
  const needs = (when: unknown, names: Record<string, unknown>) => {
    if (!when) return
    for (const [name, value] of Object.entries(names)) if (!value) missing.push(`${name} es obligatorio`)
  }
  needs(true, { SESSION_SECRET: env.SESSION_SECRET, PUBLIC_URL: env.PUBLIC_URL })
  // Admin sign-in: Google (or OIDC_ISSUER) credentials and the allow-list; no local provider here.
  needs(true, {
    GOOGLE_CLIENT_ID: env.GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: env.GOOGLE_CLIENT_SECRET,
    ADMIN_EMAILS: env.ADMIN_EMAILS.length > 0,
  })
  needs(env.MP_ACCESS_TOKEN, { MP_WEBHOOK_SECRET: env.MP_WEBHOOK_SECRET })
  // Sandbox keys would sell real goods for Wompi's test cards.
  if (env.WOMPI_PUBLIC_KEY?.startsWith('pub_test_')) {
    missing.push(
      'WOMPI_PUBLIC_KEY es una llave de pruebas (pub_test_): en producción usa las llaves de producción (pub_prod_)',
    )
  }
  needs(env.WHATSAPP_TOKEN, { WHATSAPP_PHONE_NUMBER_ID: env.WHATSAPP_PHONE_NUMBER_ID })
  needs(env.META_CAPI_TOKEN, { META_PIXEL_ID: env.META_PIXEL_ID })
  needs(env.S3_BUCKET, {
    S3_ACCESS_KEY_ID: env.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: env.S3_SECRET_ACCESS_KEY,
  })
  return missing
}
