import { z } from 'zod'
import { isTrackedElement } from './track-names.ts'

/** Spec §8's analytics messages (completed after the spec's ellipsis); logged, never shown to shoppers. */
export const ANALYTICS_MESSAGES = {
  elementRequired: 'El nombre del elemento es requerido para registrar el clic.',
  pageRequired: 'El nombre de la página es requerido para registrar la visita.',
  negativeTime: 'El tiempo pasado debe ser un número mayor que 0.',
  timeNotNumber: 'El tiempo pasado debe ser un número de segundos.',
  nameTooLong: 'El nombre es demasiado largo (máximo 120 caracteres).',
  unreadable: 'El evento de analítica no se pudo leer: envía un JSON.',
  notAnObject: 'El evento de analítica debe ser un objeto JSON con sus campos.',
  controlCharacters: 'El nombre no puede tener caracteres de control.',
  badCharacters:
    "El nombre solo puede tener letras, números, espacios y los signos / : . _ - ~ ( ) + , ' & @ % ? = #.",
  unknownElement: 'Ese elemento no es uno de los que la tienda cuenta.',
  newVisitNotBoolean: 'new_visit debe ser true o false.',
} as const

/** Longest element or page name kept (a name is a label, not a document). */
export const MAX_NAME_LENGTH = 120

/** Seconds one page view adds at most: a tab left open all night is not an hour of reading. */
export const MAX_SECONDS_PER_VIEW = 60 * 60

/** Control and invisible formatting characters (NUL, line breaks, bidi marks…). */
const CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}]/u

/** Whether a name has characters no kept name may have (`ANALYTICS_MESSAGES.controlCharacters`). */
export function hasControlCharacters(name: string): boolean {
  return CONTROL_CHARACTERS.test(name)
}
/** What a page name may be made of (letters, digits, marks and a few signs of URLs and SKUs). */
const NAME_CHARACTERS = /^[\p{L}\p{M}\p{N} /:._~()+,'&@%?=#-]*$/u

const name = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .refine((value) => !hasControlCharacters(value), {
      error: ANALYTICS_MESSAGES.controlCharacters,
      abort: true,
    })
    .max(MAX_NAME_LENGTH, { error: ANALYTICS_MESSAGES.nameTooLong, abort: true })
    .refine((value) => NAME_CHARACTERS.test(value), { error: ANALYTICS_MESSAGES.badCharacters, abort: true })

/** A click beacon: `{ element_name }` (spec §7's browser "click" event), one of the `TRACK` names. */
export const ClickEventSchema = z.object(
  {
    element_name: name(ANALYTICS_MESSAGES.elementRequired).refine(isTrackedElement, {
      error: ANALYTICS_MESSAGES.unknownElement,
    }),
  },
  { error: ANALYTICS_MESSAGES.notAnObject },
)

/**
 * A page-view beacon: `{ page_title, time_spent, new_visit }` (spec §7's "page_view"). `new_visit`
 * false adds seconds only (the shopper came back to a tab already counted). The page name is checked
 * against the storefront's pages afterwards (`pageNameOf`, and the catalogue for products).
 */
export const PageViewEventSchema = z.object(
  {
    page_title: name(ANALYTICS_MESSAGES.pageRequired),
    time_spent: z
      .number({ error: ANALYTICS_MESSAGES.timeNotNumber })
      .refine(Number.isFinite, { error: ANALYTICS_MESSAGES.timeNotNumber })
      .min(0, { error: ANALYTICS_MESSAGES.negativeTime })
      .transform((seconds) => Math.min(Math.round(seconds), MAX_SECONDS_PER_VIEW)),
    new_visit: z.boolean({ error: ANALYTICS_MESSAGES.newVisitNotBoolean }).default(true),
  },
  { error: ANALYTICS_MESSAGES.notAnObject },
)

export type ClickEvent = z.infer<typeof ClickEventSchema>
export type PageViewEvent = z.infer<typeof PageViewEventSchema>

/** What the consent form answers when it cannot keep the choice. */
export const CONSENT_MESSAGES = {
  otherSite: 'Tu elección de privacidad debe enviarse desde la tienda.',
  notUnderstood: 'No entendimos tu elección de privacidad. Inténtalo de nuevo.',
  unexpected: 'No pudimos guardar tu elección. Inténtalo de nuevo.',
} as const

/** The choice posted by the consent banner (checkboxes `analitica`, `publicidad`; button `eleccion`). */
export const ConsentFormSchema = z
  .object({
    eleccion: z.enum(['seleccion', 'todo', 'nada']).default('seleccion'),
    analitica: z.literal('si').optional(),
    publicidad: z.literal('si').optional(),
    volver: z.string().optional(),
    /**
     * The site that sent the shopper to the page (`document.referrer`, added by the banner's
     * script): where they came from, for campaign attribution. Never a reason to refuse the answer.
     */
    origen: z.string().optional().catch(undefined),
  })
  .transform(({ eleccion, analitica, publicidad, volver, origen }) => ({
    analytics: eleccion === 'todo' || (eleccion === 'seleccion' && analitica === 'si'),
    advertising: eleccion === 'todo' || (eleccion === 'seleccion' && publicidad === 'si'),
    returnTo: volver,
    referrer: origen,
  }))

/** How many elements and pages "Reportes" lists (the biggest; the rest are counted in a note). */
export const REPORT_ROWS = 50

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/

export const ReportQuerySchema = z.object({
  mes: z
    .string()
    .regex(MONTH_PATTERN, { error: 'El mes debe tener la forma AAAA-MM, p. ej. 2026-11.' })
    .optional()
    .catch(undefined),
})
