import { expect, test } from 'vitest'
import { pageUrl } from './paths.ts'

const page = (url: string) => {
  const found = pageUrl(new Request(url))
  return found.pathname + found.search
}

test("a client navigation's data request names the page it loads", () => {
  expect(page('http://shop.test/admin/productos.data?q=col&_routes=routes%2Fadmin%2Flayout')).toBe(
    '/admin/productos?q=col',
  )
  expect(page('http://shop.test/_.data')).toBe('/')
  expect(page('http://shop.test/admin/_.data?index')).toBe('/admin/')
})

test('a document request is the page itself, its query untouched', () => {
  expect(page('http://shop.test/admin/productos?q=col&_routes=x')).toBe('/admin/productos?q=col&_routes=x')
  expect(page('http://shop.test/')).toBe('/')
})
