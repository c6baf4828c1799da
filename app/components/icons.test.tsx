import fs from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { expect, test } from 'vitest'
import { ShopMark } from './icons.tsx'

test('the inline shop mark draws the same picture as the favicon', () => {
  const favicon = fs.readFileSync(new URL('../../public/favicon.svg', import.meta.url), 'utf8').trim()
  // The shapes inside `<svg>`, each written as a self-closing element.
  const drawing = (svg: string) =>
    svg
      .replace(/^<svg[^>]*>|<\/svg>$/g, '')
      .replace(/<(\w+)([^>]*)><\/\1>/g, '<$1$2/>')
      .replace(/\s*\/>/g, '/>')
  expect(drawing(renderToStaticMarkup(<ShopMark />))).toBe(drawing(favicon))
})
