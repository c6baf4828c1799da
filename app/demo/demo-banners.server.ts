import sharp from 'sharp'

/** What a demo banner says and shows; `products` are product pictures (any format sharp reads). */
export type DemoBannerContent = {
  headline: string
  subline: string
  action: string
  /** Background gradient, dark to light: the text is white on the dark side. */
  colors: readonly [string, string]
  products: Buffer[]
}

export type BannerSize = { width: number; height: number }

export const DEMO_BANNER_DESKTOP: BannerSize = { width: 1600, height: 600 }
export const DEMO_BANNER_MOBILE: BannerSize = { width: 700, height: 700 }

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Where the text and the product pictures go: side by side on a wide banner, text above the
 * pictures on a square one (the phone's crop). The pictures overlap a little, like a fanned hand.
 */
function layoutFor({ width, height }: BannerSize, count: number) {
  const wide = width / height > 1.5
  const unit = Math.min(width, height)
  const tileSize = Math.round(wide ? height * 0.5 : width * 0.36)
  const step = Math.round(tileSize * 0.72)
  const rowWidth = tileSize + step * (count - 1)
  const rowLeft = wide ? width - Math.round(width * 0.05) - rowWidth : Math.round((width - rowWidth) / 2)
  const tiles = Array.from({ length: count }, (_, i) => ({
    left: rowLeft + i * step,
    // A gentle wave, so the row looks arranged rather than pasted.
    top: Math.round(
      (wide ? (height - tileSize) / 2 : height - tileSize - height * 0.08) +
        (i % 2 === 0 ? -1 : 1) * unit * 0.04,
    ),
    size: tileSize,
  }))
  const x = Math.round(width * (wide ? 0.06 : 0.08))
  const text = wide
    ? {
        x,
        y: Math.round(height * 0.26),
        size: Math.round(unit * 0.15),
        room: rowLeft - x - Math.round(width * 0.03),
      }
    : { x, y: Math.round(height * 0.08), size: Math.round(unit * 0.12), room: width - 2 * x }
  return { text, tiles }
}

/** A product picture cut to a rounded tile with a thin white frame. */
async function tile(picture: Buffer, size: number) {
  const radius = Math.round(size * 0.12)
  const mask = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="${size}" height="${size}" rx="${radius}" fill="#fff"/></svg>`,
  )
  const frame = Math.max(2, Math.round(size * 0.02))
  const border = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect x="${frame / 2}" y="${frame / 2}" width="${size - frame}" height="${size - frame}" rx="${radius}" fill="none" stroke="#ffffff" stroke-width="${frame}"/></svg>`,
  )
  return sharp(picture)
    .resize(size, size, { fit: 'cover' })
    .composite([
      { input: mask, blend: 'dest-in' },
      { input: border, blend: 'over' },
    ])
    .png()
    .toBuffer()
}

/**
 * A finished-looking promotional banner for the demo shop: headline, a line of copy, a call to
 * action and real product pictures, on the category's colours. PNG; the media pipeline makes the
 * WebP variants. Text needs a system font (any sans-serif); without one the pictures still show.
 */
export async function renderDemoBanner(content: DemoBannerContent, size: BannerSize): Promise<Buffer> {
  const { width, height } = size
  const [dark, light] = content.colors
  const { text: box, tiles } = layoutFor(size, content.products.length)
  // Shrink the type until each line fits its room (glyphs average about 0.6 of the size in a sans).
  const fit = (wanted: number, line: string, average: number) =>
    Math.min(wanted, Math.floor(box.room / (line.length * average)))
  const text = { ...box, size: fit(box.size, content.headline, 0.66) }
  const sub = fit(Math.round(text.size * 0.4), content.subline, 0.56)
  const headlineBase = text.y + Math.round(text.size * 0.85)
  const subBase = headlineBase + Math.round(sub * 1.9)
  const pillHeight = Math.round(sub * 2.2)
  const pillWidth = Math.round(content.action.length * sub * 0.62 + pillHeight)
  const pillY = subBase + Math.round(sub * 1.2)
  const background = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>
      <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${light}"/>
      </linearGradient>
    </defs>
    <rect width="100%" height="100%" fill="url(#bg)"/>
    <circle cx="${width * 0.92}" cy="${height * 0.08}" r="${Math.min(width, height) * 0.35}" fill="#ffffff" fill-opacity="0.12"/>
    <circle cx="${width * 0.55}" cy="${height * 1.05}" r="${Math.min(width, height) * 0.3}" fill="#ffffff" fill-opacity="0.08"/>
    <g font-family="DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif" fill="#ffffff">
      <text x="${text.x}" y="${headlineBase}" font-size="${text.size}" font-weight="bold">${escapeXml(content.headline)}</text>
      <text x="${text.x}" y="${subBase}" font-size="${sub}" fill-opacity="0.92">${escapeXml(content.subline)}</text>
      <rect x="${text.x}" y="${pillY}" width="${pillWidth}" height="${pillHeight}" rx="${pillHeight / 2}" fill="#ffffff"/>
      <text x="${text.x + pillWidth / 2}" y="${pillY + pillHeight * 0.66}" font-size="${sub}" font-weight="bold" text-anchor="middle" fill="${dark}">${escapeXml(content.action)}</text>
    </g>
  </svg>`)
  const pictures = await Promise.all(
    content.products.map(async (picture, i) => ({
      input: await tile(picture, tiles[i]!.size),
      left: tiles[i]!.left,
      top: tiles[i]!.top,
    })),
  )
  return sharp(background).composite(pictures).png().toBuffer()
}
