import { expect, test } from 'vitest'
import { CONSENT_CHANGE_EVENT } from '#app/modules/analytics/consent.ts'
import { CONSENT_CHANGE } from './meta-pixel.tsx'

test('MetaPixel listens to the consent module’s change event', () => {
  expect(CONSENT_CHANGE).toBe(CONSENT_CHANGE_EVENT)
})
