// Types for what tests import from eslint.config.js (a plain JS file, which tsc does not read).
import type { Linter } from 'eslint'

export const MODULE_MAP: Readonly<Record<string, readonly string[]>>
declare const config: Linter.Config[]
export default config
