import { expect, test } from 'vitest'
import { SHOW_DEFERRED_ATTRIBUTE } from '#app/utils/deferred-content.ts'
import { HIDDEN_UNTIL_HYDRATED } from './hydrate-later.tsx'

test('content held back until hydration gives way once the script loader stops waiting', () => {
  expect(HIDDEN_UNTIL_HYDRATED).toContain(`:not([${SHOW_DEFERRED_ATTRIBUTE}])`)
  expect(HIDDEN_UNTIL_HYDRATED).toContain(':not([data-hydrated])')
})
