import { asc, inArray } from 'drizzle-orm'
import { media } from '#app/modules/catalog/schema.ts'
import { imageSource, mediaUrl, type ImageSource, type MediaReads } from '#app/modules/media/image-source.ts'
import { banners } from './schema.ts'

export type Banner =
  | {
      id: number
      kind: 'image'
      alt: string
      link: string | null
      desktop: ImageSource
      mobile: ImageSource | null
    }
  | { id: number; kind: 'video'; alt: string; link: string | null; src: string }

export async function listBanners({ db, publicBase }: MediaReads): Promise<Banner[]> {
  const rows = await db.select().from(banners).orderBy(asc(banners.position), asc(banners.id))
  // Media by primary key in a second query: a join let the planner hash the whole media table
  // (one row per product image) on every home page view.
  const ids = rows.flatMap((row) =>
    row.mobileMediaId === null ? [row.desktopMediaId] : [row.desktopMediaId, row.mobileMediaId],
  )
  const files = ids.length ? await db.select().from(media).where(inArray(media.id, ids)) : []
  const byId = new Map(files.map((file) => [file.id, file]))
  return rows.flatMap((banner) => {
    const desktop = byId.get(banner.desktopMediaId)
    if (!desktop) return []
    const small = banner.mobileMediaId === null ? undefined : byId.get(banner.mobileMediaId)
    return [
      banner.kind === 'video' || desktop.kind === 'video'
        ? {
            id: banner.id,
            kind: 'video' as const,
            alt: banner.alt,
            link: banner.link,
            src: mediaUrl(desktop.path, publicBase),
          }
        : {
            id: banner.id,
            kind: 'image' as const,
            alt: banner.alt,
            link: banner.link,
            desktop: imageSource(desktop, banner.alt, publicBase),
            mobile: small ? imageSource(small, banner.alt, publicBase) : null,
          },
    ]
  })
}
