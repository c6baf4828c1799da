// `npm run bench`: storefront throughput and latency with 100 and with 10,000 products, and the
// JavaScript a first visit to each storefront page downloads. It reports; it never fails on a missed
// target (tests assert, benchmarks report). Loopback only, bounded in time.
//
// Environment: BENCH_DATABASE_URL (also run on that PostgreSQL server, in a temporary database),
// BENCH_SECONDS (per page, default 3), BENCH_CONCURRENCY (default 10).
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { buildIfStale } from './build-if-stale.js'
import { createScratchDatabase } from './scratch-database.js'
import { firstVisitJs } from './first-visit-js.js'
import { killChildren, MEASURE_BUILD_DIR, run, startServer } from './serve-build.js'

const SIZES = [100, 10_000]
const SECONDS = Number(process.env.BENCH_SECONDS) || 3
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY) || 10
/**
 * Each page is first loaded as hard as it is measured, for a second: V8 optimises the render code
 * and the database warms its caches under load, which 40 requests one at a time did not do (the
 * first page measured after seeding came out up to 30 % slower than the same page a minute later).
 */
const WARMUP_SECONDS = 1
const SEARCH_TERM = 'corazon'
/**
 * "corazon" fills 8 cards of 100 products and a full page of 20 of 10,000, so `/buscar` also
 * measures 12 more cards. A term found in both catalogues more than 20 times shows the catalogue
 * size alone.
 */
const FULL_PAGE_TERM = 'a'
const TARGET_RATIO = 1.2
const JS_BUDGET_BYTES = 100 * 1024
/** The storefront pages held to the JavaScript budget, by their labels in choosePages, and the cart's. */
const JS_PAGES = ['inicio /', 'categoría', 'producto', 'buscar']
const CART_PAGES = [
  { label: 'carrito', path: '/carrito' },
  { label: 'checkout', path: '/finalizar-pedido' },
]
/** Issue 10: storefront pages at half the minimal SSR page's req/s or more, p99 ≤ 50 ms. */
const TARGET_SHARE = 0.5
const TARGET_P99_MS = 50
const SHARE_PAGES = ['inicio /', 'categoría', 'producto']
/** A page with no data or layout (app/routes/bench-baseline.tsx): the server's ceiling for SSR. */
const BASELINE_PATH = '/_base-ssr'

// ---------------------------------------------------------------------------------------------
// Load

/** Runs `once` from CONCURRENCY workers for SECONDS; latencies in ms. */
async function measure(once, seconds = SECONDS) {
  const latencies = []
  const started = performance.now()
  const end = started + seconds * 1000
  const worker = async () => {
    while (performance.now() < end) latencies.push(await once())
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]
  return { count: latencies.length, elapsed, p50: at(0.5), p99: at(0.99) }
}

/**
 * Keeps CONCURRENCY requests in flight on keep-alive sockets for SECONDS and records each latency.
 * Bodies are read in full (gzip, as a browser asks) but not decompressed.
 */
async function load(base, pathname) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const url = new URL(pathname, base)
  const once = () =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint()
      const req = http.get(url, { agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.on('data', () => {})
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${pathname}: HTTP ${res.statusCode}`))
          else resolve(Number(process.hrtime.bigint() - started) / 1e6)
        })
        res.on('error', reject)
      })
      req.setTimeout(30_000, () => req.destroy(new Error(`${pathname}: sin respuesta en 30 s`)))
      req.on('error', reject)
    })
  try {
    await measure(once, WARMUP_SECONDS)
    const { count, elapsed, p50, p99 } = await measure(once)
    return { requests: count, rps: count / elapsed, p50, p99 }
  } finally {
    agent.destroy()
  }
}

/**
 * Places cash-on-delivery orders through the checkout form for SECONDS, one unit of a different
 * visible product each time (skus from the sitemap), and records each latency.
 */
/** Spec §8's refusal of an order over the stock (the only refusal the bench's orders expect). */
const OVER_STOCK = 'Hay productos con cantidades superiores al stock.'

async function loadCheckout(base) {
  const sitemap = await getText(`${base}/sitemap.xml`)
  // `/producto/{sku}/{slug}`: the SKU is the segment after /producto/.
  const skus = [...sitemap.matchAll(/\/producto\/([^/<]+)(?:\/[^<]*)?<\/loc>/g)].map(([, sku]) =>
    decodeURIComponent(sku),
  )
  if (!skus.length) throw new Error('El sitemap no lista productos para el pedido de prueba')
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  let next = 0
  let placed = 0
  let refused = 0
  const once = () =>
    new Promise((resolve, reject) => {
      const sku = skus[next++ % skus.length]
      const body = new URLSearchParams({
        cart: JSON.stringify([{ sku, quantity: 1 }]),
        name: 'Cliente Bench',
        phone: '3001234567',
        address: 'Calle 1 # 2-3',
        department: 'Antioquia',
        municipality_code: '05001',
        payment_method: 'acordar',
        consent: 'on',
        // Every checkout form carries a fresh key (one order per form); a post without one is refused.
        checkout_key: randomUUID(),
      }).toString()
      const started = process.hrtime.bigint()
      const req = http.request(
        new URL('/finalizar-pedido', base),
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': Buffer.byteLength(body),
            origin: base,
          },
        },
        (res) => {
          let page = ''
          res.setEncoding('utf8')
          res.on('data', (chunk) => (page += chunk))
          res.on('end', () => {
            // 302 to the success page is an order; a 400 must be the refusal of a product that ran
            // out: any other means the bench's form no longer is the checkout's, and its figure lies.
            if (res.statusCode === 302) placed++
            else if (res.statusCode === 400 && page.includes(OVER_STOCK)) refused++
            else return reject(new Error(`checkout: HTTP ${res.statusCode} ${page.slice(0, 300)}`))
            resolve(Number(process.hrtime.bigint() - started) / 1e6)
          })
          res.on('error', reject)
        },
      )
      req.setTimeout(30_000, () => req.destroy(new Error('checkout: sin respuesta en 30 s')))
      req.on('error', reject)
      req.end(body)
    })
  try {
    const { elapsed, p50, p99 } = await measure(once)
    return { ordersPerSecond: placed / elapsed, placed, refused, p50, p99 }
  } finally {
    agent.destroy()
  }
}

async function getText(url) {
  const res = await fetch(url)
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`)
  return res.text()
}

/** The pages to measure, found the way a shopper would: from the home page. */
async function choosePages(base) {
  const home = await getText(`${base}/`)
  const category = home.match(/href="(\/categoria\/[^"]+)"/)?.[1]
  if (!category) throw new Error('No se encontró un enlace a una categoría en la página de inicio')
  const product = home.match(/href="(\/producto\/[^"]+)"/)?.[1]
  if (!product) throw new Error('No se encontró un enlace a un producto en la página de inicio')
  const decode = (href) => href.replace(/&amp;/g, '&')
  return [
    { label: 'SSR mínima', path: BASELINE_PATH },
    { label: 'inicio /', path: '/' },
    { label: 'categoría', path: decode(category) },
    { label: 'producto', path: decode(product) },
    { label: 'api/buscar', path: `/api/buscar?q=${SEARCH_TERM}` },
    { label: 'buscar', path: `/buscar?q=${SEARCH_TERM}` },
    { label: 'buscar 20', path: `/buscar?q=${FULL_PAGE_TERM}` },
  ]
}

// ---------------------------------------------------------------------------------------------
// First-visit JavaScript

// ---------------------------------------------------------------------------------------------
// One catalogue on one engine

async function benchCatalogue(engine, size) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-'))
  const env = { ...process.env, DATA_DIR: dataDir }
  delete env.DATABASE_URL
  let database
  try {
    if (engine.serverUrl) {
      database = await createScratchDatabase(engine.serverUrl, 'vitrina_bench')
      env.DATABASE_URL = database.url
    }
    const seedStarted = performance.now()
    await run(['--import', 'tsx', 'scripts/seed.ts', '--products', String(size)], env)
    const seedSeconds = (performance.now() - seedStarted) / 1000
    const server = await startServer({ ...env, BENCH_BASELINE_PAGE: '1' }, MEASURE_BUILD_DIR)
    try {
      const pages = await choosePages(server.base)
      const results = []
      for (const page of pages) {
        const result = await load(server.base, page.path)
        results.push({ ...page, ...result })
        process.stdout.write(
          `  ${engine.name}, ${size} productos, ${page.label.padEnd(11)} ${fmt(result.rps, 0).padStart(6)} req/s\n`,
        )
      }
      const js = []
      for (const page of [...pages.filter((p) => JS_PAGES.includes(p.label)), ...CART_PAGES]) {
        js.push({ label: page.label, files: await firstVisitJs(server.base, page.path) })
      }
      // Last: orders change stock and best sellers, so the page figures come first.
      const checkout = await loadCheckout(server.base)
      process.stdout.write(
        `  ${engine.name}, ${size} productos, pedidos    ${fmt(checkout.ordersPerSecond, 0).padStart(6)} pedidos/s\n`,
      )
      return { size, seedSeconds, results, js, checkout }
    } finally {
      await server.stop()
    }
  } finally {
    await database?.drop().catch((error) => console.error(`No se pudo borrar la base temporal: ${error}`))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (n, digits = 1) =>
  n.toLocaleString('es-CO', { maximumFractionDigits: digits, minimumFractionDigits: digits })
const kb = (bytes) => `${fmt(bytes / 1024, 1)} KB`

function report(engine, small, large) {
  const lines = []
  const head = `${'página'.padEnd(12)}│ ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} │ ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} │ ${'p50'.padStart(6)} ${'req/s'.padStart(6)}`
  lines.push(
    `\n${engine.name}: ${CONCURRENCY} conexiones, ${SECONDS} s por página (carga de datos: ${fmt(small.seedSeconds)} s y ${fmt(large.seedSeconds)} s)`,
  )
  lines.push(
    `${''.padEnd(12)}│ ${`${small.size} productos`.padEnd(23)} │ ${`${large.size.toLocaleString('es-CO')} productos`.padEnd(23)} │ 10k/100`,
  )
  lines.push(head)
  lines.push('─'.repeat(head.length))
  const verdicts = []
  for (const [index, a] of small.results.entries()) {
    const b = large.results[index]
    const p50Ratio = b.p50 / a.p50
    const rpsRatio = a.rps / b.rps
    lines.push(
      `${a.label.padEnd(12)}│ ${fmt(a.rps, 0).padStart(7)} ${fmt(a.p50).padStart(7)} ${fmt(a.p99).padStart(7)} │ ${fmt(b.rps, 0).padStart(7)} ${fmt(b.p50).padStart(7)} ${fmt(b.p99).padStart(7)} │ ${`${fmt(p50Ratio, 2)}×`.padStart(6)} ${`${fmt(1 / rpsRatio, 2)}×`.padStart(6)}`,
    )
    const ok = p50Ratio <= TARGET_RATIO && rpsRatio <= TARGET_RATIO
    verdicts.push(
      `${ok ? 'PASS' : 'FAIL'} ${engine.name} ${a.label}: con 10.000 productos p50 ${fmt(p50Ratio, 2)}× y req/s ${fmt(1 / rpsRatio, 2)}× de las cifras con 100 (objetivo: p50 ≤ ${TARGET_RATIO}×, req/s ≥ 1/${TARGET_RATIO})`,
    )
  }
  lines.push('\nreq/s de cada página como parte de las de la página SSR mínima:')
  for (const run of [small, large]) {
    const baseline = run.results.find((result) => result.path === BASELINE_PATH)
    const shares = run.results
      .filter((result) => result !== baseline && !result.path.startsWith('/api/'))
      .map((result) => `${result.label} ${fmt((result.rps / baseline.rps) * 100, 0)} %`)
    lines.push(`  ${run.size.toLocaleString('es-CO')} productos: ${shares.join(', ')}`)
    for (const result of run.results.filter((r) => SHARE_PAGES.includes(r.label))) {
      const share = result.rps / baseline.rps
      const ok = share >= TARGET_SHARE && result.p99 <= TARGET_P99_MS
      verdicts.push(
        `${ok ? 'PASS' : 'FAIL'} ${engine.name} ${result.label} (${run.size.toLocaleString('es-CO')} productos): ${fmt(share * 100, 0)} % de la SSR mínima, p99 ${fmt(result.p99)} ms (objetivo: ≥ ${TARGET_SHARE * 100} %, p99 ≤ ${TARGET_P99_MS} ms)`,
      )
    }
  }
  for (const run of [small, large]) {
    const c = run.checkout
    lines.push(
      `pedido (${run.size.toLocaleString('es-CO')} productos): ${fmt(c.ordersPerSecond, 1)} pedidos/s, p50 ${fmt(c.p50)} ms, p99 ${fmt(c.p99)} ms (${c.placed} pedidos, ${c.refused} rechazados por stock)`,
    )
  }
  console.log(lines.join('\n'))
  return verdicts
}

function reportJs(js) {
  const sum = (files, key) => files.reduce((total, file) => total + file[key], 0)
  console.log(`\nJavaScript de la primera visita (gzip y Brotli, como lo recibe un navegador):`)
  for (const page of js) {
    console.log(
      `  ${page.label.padEnd(11)} ${kb(sum(page.files, 'gzip')).padStart(9)} gzip  ${kb(sum(page.files, 'brotli')).padStart(9)} br  ${page.files.length} archivos`,
    )
  }
  const heaviest = js.reduce((a, b) => (sum(b.files, 'gzip') > sum(a.files, 'gzip') ? b : a))
  console.log(`La más pesada, ${heaviest.label}:`)
  for (const file of heaviest.files) {
    console.log(
      `  ${kb(file.gzip).padStart(9)} gzip  ${kb(file.brotli).padStart(9)} br  ${kb(file.raw).padStart(9)}  ${new URL(file.url).pathname}`,
    )
  }
  const total = sum(heaviest.files, 'gzip')
  return `${total <= JS_BUDGET_BYTES ? 'PASS' : 'FAIL'} JavaScript de la primera visita: a lo sumo ${kb(total)} gzip (${heaviest.label}), ${kb(sum(heaviest.files, 'brotli'))} br (objetivo: a lo sumo ${kb(JS_BUDGET_BYTES)} gzip en cada página)`
}

async function main() {
  const started = performance.now()
  buildIfStale(MEASURE_BUILD_DIR, { quiet: true })
  const engines = [{ name: 'PGlite' }]
  if (process.env.BENCH_DATABASE_URL) {
    engines.push({ name: 'PostgreSQL', serverUrl: process.env.BENCH_DATABASE_URL })
  }
  console.log(
    `Midiendo ${engines.map((e) => e.name).join(' y ')} con ${SIZES.join(' y ')} productos (${os.cpus().length} núcleos, Node ${process.version})…`,
  )
  const verdicts = []
  let js
  for (const engine of engines) {
    const runs = []
    for (const size of SIZES) runs.push(await benchCatalogue(engine, size))
    verdicts.push(...report(engine, ...runs))
    js ??= runs.at(-1).js
  }
  verdicts.push(reportJs(js))
  console.log(`\n${verdicts.join('\n')}`)
  console.log(`\nTiempo total: ${fmt((performance.now() - started) / 1000)} s`)
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  killChildren()
  process.exitCode = 1
})
