import { z } from 'zod'

/**
 * The filters of "Seguridad"'s lists, read from the address: anything malformed is dropped rather
 * than refused, so a mistyped or crafted link still shows the page.
 */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
  .optional()
  .catch(undefined)

/** Entries (and sign-ins) one page of "Seguridad" shows. */
export const AUDIT_PAGE_SIZE = 50

export const SECURITY_VIEWS = ['sesiones', 'ingresos', 'cambios'] as const
export type SecurityView = (typeof SECURITY_VIEWS)[number]

export const SecurityQuerySchema = z.object({
  ver: z.enum(SECURITY_VIEWS).catch('sesiones'),
  q: z
    .string()
    .transform((value) => value.replace(/\0/g, '').trim().slice(0, 100))
    .optional()
    .catch(undefined),
  desde: day,
  hasta: day,
  pagina: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
})

export type SecurityQuery = z.infer<typeof SecurityQuerySchema>

export function securityQueryOf(params: URLSearchParams): SecurityQuery {
  return SecurityQuerySchema.parse({
    ver: params.get('ver') ?? undefined,
    q: params.get('q') ?? undefined,
    desde: params.get('desde') ?? undefined,
    hasta: params.get('hasta') ?? undefined,
    pagina: params.get('pagina') ?? undefined,
  })
}
