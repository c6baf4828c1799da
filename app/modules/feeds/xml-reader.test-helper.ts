/**
 * For the feeds' tests only (the project has no XML parser): a strict reader of well-formed XML 1.0
 * as the feeds write it. It throws on anything a conforming parser refuses that the feeds could
 * produce (a character XML cannot carry, a bare `&` or `<`, an unknown entity, tags that do not
 * nest, an undeclared prefix, text outside the root) and gives back the element tree with text
 * decoded. No DTDs, CDATA or processing instructions besides the declaration: the feeds write none.
 */

export type XmlElement = {
  name: string
  attributes: Record<string, string>
  children: (XmlElement | string)[]
}

// Characters XML 1.0 allows (section 2.2): anything else anywhere in the document is an error.
const ALLOWED = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u
const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

function decode(text: string, where: number): string {
  return text.replace(/&([^;&<]*)(;?)/g, (_whole, name: string, semicolon: string) => {
    if (!semicolon) throw new Error(`"&" sin entidad en la posición ${where}`)
    const numeric = /^#(?:x([0-9a-fA-F]+)|(\d+))$/.exec(name)
    if (numeric) {
      const code = numeric[1] ? parseInt(numeric[1], 16) : parseInt(numeric[2]!, 10)
      const char = code <= 0x10ffff ? String.fromCodePoint(code) : ''
      if (!char || !ALLOWED.test(char)) throw new Error(`referencia a un carácter no válido: &${name};`)
      return char
    }
    const named = PREDEFINED[name]
    if (named === undefined) throw new Error(`entidad desconocida: &${name};`)
    return named
  })
}

/** Parses a whole document; throws with the reason when it is not well-formed. */
export function readXml(xml: string): XmlElement {
  if (!ALLOWED.test(xml)) throw new Error('el documento tiene caracteres que XML no admite')
  let at = 0
  const declaration = /^<\?xml\s+version="1\.0"(?:\s+encoding="UTF-8")?\s*\?>/.exec(xml)
  if (declaration) at = declaration[0].length
  const stack: XmlElement[] = []
  let root: XmlElement | null = null
  const prefixes: string[][] = []

  const checkPrefix = (name: string) => {
    const colon = name.indexOf(':')
    if (colon < 0) return
    const prefix = name.slice(0, colon)
    if (prefix !== 'xml' && prefix !== 'xmlns' && !prefixes.some((declared) => declared.includes(prefix))) {
      throw new Error(`prefijo sin declarar: ${prefix}`)
    }
  }

  while (at < xml.length) {
    const next = xml.indexOf('<', at)
    const text = xml.slice(at, next < 0 ? xml.length : next)
    if (text) {
      if (text.includes(']]>')) throw new Error('"]]>" en el texto')
      const decoded = decode(text, at)
      const parent = stack.at(-1)
      if (parent) parent.children.push(decoded)
      else if (text.trim()) throw new Error(`texto fuera del elemento raíz en la posición ${at}`)
    }
    if (next < 0) break
    at = next
    if (xml.startsWith('<!--', at)) {
      const end = xml.indexOf('-->', at + 4)
      if (end < 0 || xml.slice(at + 4, end).includes('--')) throw new Error('comentario mal formado')
      at = end + 3
      continue
    }
    if (xml.startsWith('</', at)) {
      const name = NAME.exec(xml.slice(at + 2))?.[0]
      const close = xml.indexOf('>', at)
      if (!name || close < 0 || xml.slice(at + 2 + name.length, close).trim()) {
        throw new Error(`etiqueta de cierre mal formada en la posición ${at}`)
      }
      const open = stack.pop()
      prefixes.pop()
      if (!open || open.name !== name) throw new Error(`</${name}> no cierra <${open?.name ?? ''}>`)
      at = close + 1
      continue
    }
    const name = NAME.exec(xml.slice(at + 1))?.[0]
    if (!name) throw new Error(`"<" que no abre una etiqueta en la posición ${at}`)
    if (!stack.length && root) throw new Error('más de un elemento raíz')
    at += 1 + name.length
    const element: XmlElement = { name, attributes: {}, children: [] }
    for (;;) {
      const space = /^\s*/.exec(xml.slice(at))![0]
      at += space.length
      if (xml.startsWith('/>', at) || xml.startsWith('>', at)) break
      const attribute = /^([A-Za-z_][\w.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(xml.slice(at))
      if (!attribute || !space) throw new Error(`atributo mal formado en <${name}>`)
      const attributeName = attribute[1]!
      if (attributeName in element.attributes) throw new Error(`atributo repetido: ${attributeName}`)
      element.attributes[attributeName] = decode(attribute[3] ?? attribute[4] ?? '', at)
      at += attribute[0].length
    }
    prefixes.push(
      Object.keys(element.attributes)
        .filter((key) => key.startsWith('xmlns:'))
        .map((key) => key.slice('xmlns:'.length)),
    )
    checkPrefix(name)
    for (const key of Object.keys(element.attributes)) checkPrefix(key)
    const parent = stack.at(-1)
    if (parent) parent.children.push(element)
    else root = element
    if (xml.startsWith('/>', at)) {
      prefixes.pop()
      at += 2
    } else {
      stack.push(element)
      at += 1
    }
  }
  if (stack.length) throw new Error(`<${stack.at(-1)!.name}> sin cerrar`)
  if (!root) throw new Error('sin elemento raíz')
  return root
}

/** An element's text (its text children joined). */
export function textOf(element: XmlElement): string {
  return element.children.filter((child) => typeof child === 'string').join('')
}

export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter(
    (child): child is XmlElement => typeof child !== 'string' && (name === undefined || child.name === name),
  )
}

/**
 * A feed's items, each as its fields by name without the `g:` prefix (Google's plain `title`,
 * `link` and `description` read the same), after checking the RSS frame and the namespace.
 */
export function feedItemsOf(xml: string): Record<string, string>[] {
  const rss = readXml(xml)
  if (rss.name !== 'rss' || rss.attributes.version !== '2.0') throw new Error('no es RSS 2.0')
  if (rss.attributes['xmlns:g'] !== 'http://base.google.com/ns/1.0') throw new Error('sin el espacio g:')
  const [channel, ...others] = childElements(rss, 'channel')
  if (!channel || others.length) throw new Error('RSS sin un único <channel>')
  return childElements(channel, 'item').map((item) => {
    const fields: Record<string, string> = {}
    for (const field of childElements(item)) {
      const key = field.name.replace(/^g:/, '')
      if (key in fields) throw new Error(`campo repetido: ${key}`)
      fields[key] = textOf(field)
    }
    return fields
  })
}

/**
 * What each platform requires of every item, from its published spec: Meta's catalog (id, title,
 * description, availability, condition, price, link, image_link, brand) and Google Merchant Center's
 * product data (id, title, description, link, image_link, availability, price; brand, or
 * identifier_exists "no" for goods without GTIN or MPN; condition, which we always give).
 */
export const REQUIRED_FIELDS = {
  meta: ['id', 'title', 'description', 'availability', 'condition', 'price', 'link', 'image_link', 'brand'],
  google: ['id', 'title', 'description', 'link', 'image_link', 'availability', 'price', 'condition'],
} as const

const SPEC = {
  meta: { availability: ['in stock', 'out of stock'], id: 100, title: 200, description: 9999 },
  google: { availability: ['in_stock', 'out_of_stock'], id: 50, title: 150, description: 5000 },
} as const

const PRICE = /^\d+\.\d{2} COP$/
const MOMENT = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2})?(?:Z|[+-]\\d{2}:?\\d{2})'
const EFFECTIVE_DATES = new RegExp(`^${MOMENT}/${MOMENT}$`)
const ABSOLUTE_ASCII_URL = /^https?:\/\/[\x21-\x7e]+$/

/** Every way an item breaks its platform's rules, as "id: problem" lines; empty when the feed is valid. */
export function feedProblems(
  platform: 'meta' | 'google',
  items: readonly Record<string, string>[],
): string[] {
  const spec = SPEC[platform]
  const problems: string[] = []
  const seen = new Set<string>()
  for (const item of items) {
    const id = item.id ?? '(sin id)'
    const problem = (text: string) => problems.push(`${id}: ${text}`)
    for (const field of REQUIRED_FIELDS[platform]) if (!item[field]?.trim()) problem(`falta ${field}`)
    if (platform === 'google' && !item.brand?.trim() && item.identifier_exists !== 'no') {
      problem('falta brand o identifier_exists')
    }
    if (seen.has(id)) problem('id repetido')
    seen.add(id)
    if ([...id].length > spec.id) problem('id demasiado largo')
    if ([...(item.title ?? '')].length > spec.title) problem('title demasiado largo')
    if ([...(item.description ?? '')].length > spec.description) problem('description demasiado larga')
    if (item.availability && !(spec.availability as readonly string[]).includes(item.availability)) {
      problem(`availability no válida: ${item.availability}`)
    }
    if (item.condition && item.condition !== 'new') problem(`condition no válida: ${item.condition}`)
    for (const field of ['price', 'sale_price'] as const) {
      if (item[field] !== undefined && !PRICE.test(item[field]))
        problem(`${field} mal escrito: ${item[field]}`)
    }
    if (item.sale_price !== undefined && !(parseFloat(item.sale_price) < parseFloat(item.price ?? ''))) {
      problem('sale_price no es menor que price')
    }
    if (item.sale_price_effective_date !== undefined) {
      if (!EFFECTIVE_DATES.test(item.sale_price_effective_date))
        problem('sale_price_effective_date mal escrita')
      if (item.sale_price === undefined) problem('sale_price_effective_date sin sale_price')
    }
    for (const field of ['link', 'image_link'] as const) {
      if (item[field] !== undefined && !ABSOLUTE_ASCII_URL.test(item[field]))
        problem(`${field} no es una URL absoluta`)
    }
    if (item.google_product_category !== undefined && !/^\d+$/.test(item.google_product_category)) {
      problem('google_product_category no es un id de la taxonomía')
    }
  }
  return problems
}
