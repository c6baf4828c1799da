import { expect, test } from 'vitest'
import { imageSource, mediaUrl } from './image-source.ts'
import { storedPaths } from './media.server.ts'

const ADDRESS = 'https://firebasestorage.googleapis.com/v0/b/tienda/o/productos%2Fa.jpg?alt=media'

test('a stored file is under the public base; an address kept by an import is shown as it is', () => {
  expect(mediaUrl('products/a-640.webp', '/media/')).toBe('/media/products/a-640.webp')
  expect(mediaUrl(ADDRESS, 'https://cdn.example/')).toBe(ADDRESS)
  const image = imageSource(
    { kind: 'image', path: ADDRESS, width: null, height: null, variants: [] },
    'Collar',
    '/media/',
  )
  expect(image).toMatchObject({ src: ADDRESS, thumb: ADDRESS, srcSet: '' })
})

test('an address kept by an import owns no stored file: deleting its row deletes nothing', () => {
  expect(storedPaths({ path: ADDRESS, variants: [] })).toEqual([])
  expect(storedPaths({ path: 'products/a.mp4', variants: [] })).toEqual(['products/a.mp4'])
})
