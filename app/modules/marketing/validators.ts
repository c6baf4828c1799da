import { z } from 'zod'
import { AD_EVENT_NAMES } from './ad-events.ts'

/** Browser events the shop forwards to Meta; Purchase goes from the order itself, never from a browser. */
export const BROWSER_EVENT_NAMES = AD_EVENT_NAMES.filter((name) => name !== 'Purchase')

export const META_EVENT_MESSAGES = {
  badName: 'El nombre del evento no es válido.',
  badId: 'El identificador del evento no es válido.',
  badUrl: 'La URL del evento no es de esta tienda.',
  badData: 'Los datos del evento no son válidos.',
  off: 'Los eventos de Meta no están activados en esta tienda.',
  noConsent: 'Sin autorización de publicidad: el evento no se envía.',
  staff: 'Las visitas de administradores no se envían a Meta.',
} as const

// No NUL: the job's payload is jsonb, which refuses it.
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !value.includes('\0'))

/** `custom_data` Meta's standard events use, bounded: nothing else is forwarded. */
export const AdCustomDataSchema = z
  .object({
    currency: z.literal('COP').optional(),
    value: z.number().finite().min(0).max(1_000_000_000).optional(),
    content_ids: z.array(text(64)).max(50).optional(),
    content_type: z.literal('product').optional(),
    content_name: text(200).optional(),
    num_items: z.number().int().min(0).max(10_000).optional(),
    search_string: text(200).optional(),
  })
  .strict()

/** What the pixel module posts to `/api/eventos-meta`. */
export const BrowserEventSchema = z.object({
  eventName: z.enum(BROWSER_EVENT_NAMES as [string, ...string[]], { message: META_EVENT_MESSAGES.badName }),
  eventId: z
    .string({ message: META_EVENT_MESSAGES.badId })
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, { message: META_EVENT_MESSAGES.badId }),
  eventSourceUrl: z
    .url({ message: META_EVENT_MESSAGES.badUrl })
    .max(2000, { message: META_EVENT_MESSAGES.badUrl }),
  customData: AdCustomDataSchema.default({}),
})
export type BrowserEventInput = z.infer<typeof BrowserEventSchema>
