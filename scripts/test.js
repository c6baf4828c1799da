// `npm test`: make sure Chromium is there, then run every test project (unit, integration, browser).
import { spawnSync } from 'node:child_process'
import { ensureChromium } from './ensure-chromium.js'

const args = process.argv.slice(2)
const wantsBrowser = !args.includes('--project') || args.includes('e2e')
const env = { ...process.env }
if (wantsBrowser) env.CHROMIUM_PATH = ensureChromium()
const result = spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit', env })
process.exit(result.status ?? 1)
