import fc from 'fast-check'
import type { RouterContextProvider } from 'react-router'
import { expect } from 'vitest'
import type { Database } from '#app/db/client.server.ts'
import type { Services } from '#app/services.server.ts'
import { routeContext } from './routes.ts'

/**
 * Property-based fuzzing of the routes that take input (issue 11): generators of malformed, huge,
 * wrong-typed and hostile values, a way to run a loader or action and read what the person gets,
 * and the property every answer must keep: never a 5xx, a Spanish message whenever it refuses,
 * and nothing written when it refuses.
 */

/** Runs per endpoint; `FUZZ_RUNS=5000` for a longer local run. */
export const FUZZ_RUNS = positiveInteger(process.env.FUZZ_RUNS) ?? 100

function positiveInteger(text: string | undefined): number | null {
  const value = Number(text)
  return Number.isInteger(value) && value > 0 ? value : null
}

/** A fixed seed, so every run tries the same inputs; FUZZ_SEED=n explores others. */
const FUZZ_SEED = positiveInteger(process.env.FUZZ_SEED) ?? 11

const LONG = 100_000

/** Values people (and attackers) type that have broken web forms before. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  ' \t\r\n ',
  '\u00a0\u2003\u3000',
  "' OR '1'='1",
  "'; DROP TABLE products; --",
  '1; SELECT pg_sleep(5)--',
  "\\'; select 1; --",
  '%',
  '_%_',
  '\\',
  '$1',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '</textarea><svg onload=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}${7*7}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '[object Object]',
  '-1',
  '0',
  '-0',
  '1e308',
  '-1e308',
  '1e-320',
  'NaN',
  'Infinity',
  '-Infinity',
  '1,5',
  '1.000.000,50',
  '0x10',
  '0b11',
  '1_000',
  '+5',
  ' 12 ',
  '12abc',
  '99999999999999999999999',
  '9007199254740993',
  '٣٤',
  '１２',
  '\u202Eabc\u202C',
  'שלום עולם',
  'مرحبا',
  '👩‍👩‍👧‍👦🇨🇴',
  'e\u0301\u0301\u0301\u0301',
  'Z̸̢̛͎̝̈́a̴̧͉̎l̵̼̓g̷̯̾o̶̜̔',
  '\uD800',
  'a\uDC00b',
  '\uFEFF',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '../../etc/passwd',
  '//evil.example/',
  '/\\evil.example',
  'http://evil.example/',
  'https://127.0.0.1:1/',
  'ana@example.com',
  'Categoria_1',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(LONG),
  'ñ'.repeat(LONG / 2),
  '😀'.repeat(LONG / 4),
  '<'.repeat(LONG),
]

/** A hostile text: one of the known ones, random Unicode (lone surrogates too), numbers, or mixes. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 6 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 1 },
  // PostgreSQL refuses a NUL in any text: worth trying often, anywhere in the value.
  {
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
      .map(([a, b]) => `${a}\0${b}`),
    weight: 1,
  },
  { arbitrary: fc.double().map(String), weight: 1 },
  { arbitrary: fc.bigInt().map(String), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 100)), fc.string({ maxLength: 8 }))
      .map(([a, b]) => a + b),
    weight: 1,
  },
)

/** A posted field: a text, missing, sent more than once, or a file where a text belongs. */
export type FieldValue = { kind: 'missing' } | { kind: 'values'; values: (string | File)[] }

const fileValue: fc.Arbitrary<File> = fc
  .tuple(hostileText, fc.constantFrom('image/png', 'text/html', 'application/octet-stream', ''))
  .map(([name, type]) => new File([name.slice(0, 200)], name.slice(0, 200) || 'x.png', { type }))

export const fieldValue: fc.Arbitrary<FieldValue> = fc.oneof(
  { arbitrary: hostileText.map((text) => ({ kind: 'values' as const, values: [text] })), weight: 8 },
  { arbitrary: fc.constant({ kind: 'missing' as const }), weight: 2 },
  {
    arbitrary: fc
      .array(hostileText, { minLength: 2, maxLength: 3 })
      .map((values) => ({ kind: 'values' as const, values })),
    weight: 1,
  },
  { arbitrary: fileValue.map((file) => ({ kind: 'values' as const, values: [file] })), weight: 1 },
)

export type FormFields = Record<string, string | File | (string | File)[]>

/**
 * A form whose fields start from `base` (valid, to reach the deeper rules): usually one or two of
 * them, sometimes any number, are replaced by a hostile value, removed, duplicated or sent as a
 * file; a few unknown fields too. `options` gives some fields meaningful values (intents…) to mix in.
 */
export function fuzzedFields(
  base: FormFields,
  options: Record<string, readonly string[]> = {},
): fc.Arbitrary<[string, string | File][]> {
  const names = [...new Set([...Object.keys(base), ...Object.keys(options)])]
  const changes = names.map((name) => {
    const choices: fc.WeightedArbitrary<FieldValue>[] = [{ arbitrary: fieldValue, weight: 3 }]
    if (options[name]?.length) {
      choices.push({
        arbitrary: fc
          .constantFrom(...options[name]!)
          .map((value) => ({ kind: 'values' as const, values: [value] })),
        weight: 2,
      })
    }
    return fc.oneof(...choices)
  })
  const changed = fc.oneof(
    { arbitrary: fc.subarray(names, { minLength: 0, maxLength: Math.min(2, names.length) }), weight: 3 },
    { arbitrary: fc.subarray(names), weight: 1 },
  )
  const extra = fc.array(
    fc.tuple(
      hostileText.map((n) => n.slice(0, 50)),
      hostileText,
    ),
    { maxLength: 2 },
  )
  return fc.tuple(changed, fc.tuple(...changes), extra).map(([which, values, more]) => {
    const fields: [string, string | File][] = []
    names.forEach((name, index) => {
      const value: FieldValue = which.includes(name)
        ? values[index]!
        : base[name] === undefined
          ? { kind: 'missing' }
          : { kind: 'values', values: [base[name]].flat() }
      if (value.kind === 'values') for (const v of value.values) fields.push([name, v])
    })
    return [...fields, ...more.map(([n, v]) => [n, v] as [string, string])]
  })
}

/** How the fields travel: multipart (as with files), urlencoded, or a body that is no form at all. */
export type Encoding = 'multipart' | 'urlencoded' | 'junk'
export const encoding: fc.Arbitrary<Encoding> = fc.constantFrom(
  'multipart',
  'multipart',
  'urlencoded',
  'junk',
)

const junkBodies = fc.oneof(
  fc.constant({
    type: 'multipart/form-data; boundary=----x',
    body: '------x\r\nContent-Disposition: form-da',
  }),
  fc.constant({ type: 'multipart/form-data', body: 'sin límite' }),
  fc.constant({ type: 'application/json', body: '{"name":' }),
  fc.constant({ type: 'text/plain', body: 'a=1&b=2' }),
  fc.constant({ type: 'application/x-www-form-urlencoded', body: '%%%=%E0%A4%A&=&&a=%00' }),
  fc.constant({ type: 'application/x-www-form-urlencoded', body: 'x='.padEnd(LONG, 'y') }),
  hostileText.map((body) => ({ type: 'application/octet-stream', body })),
)

/** A request body and its headers for `fields` sent as `how`. */
export function formBody(
  fields: [string, string | File][],
  how: Encoding,
  junk: { type: string; body: string },
): { body: BodyInit; headers: Record<string, string> } {
  if (how === 'junk') return { body: junk.body, headers: { 'Content-Type': junk.type } }
  if (how === 'urlencoded') {
    const params = new URLSearchParams()
    for (const [name, value] of fields) params.append(name, typeof value === 'string' ? value : value.name)
    return { body: params, headers: {} }
  }
  const form = new FormData()
  for (const [name, value] of fields) form.append(name, value)
  return { body: form, headers: {} }
}

/** A posted form: fields, encoding, and the junk body used when the encoding is `junk`. */
export function fuzzedForm(base: FormFields, options: Record<string, readonly string[]> = {}) {
  return fc.record({ fields: fuzzedFields(base, options), how: encoding, junk: junkBodies })
}

/** Any JSON a script could post: wrong types, arrays, null, deep nesting, hostile texts anywhere. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(null, [], {}, 0, -1, true, '', 1e308), weight: 1 },
  {
    arbitrary: fc.integer({ min: 20, max: 200 }).map((depth) => {
      let value: unknown = 'fondo'
      for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value }
      return value
    }),
    weight: 1,
  },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  { arbitrary: fc.array(hostileText, { maxLength: 3 }), weight: 1 },
)

/**
 * An object from `base`: usually one or two keys, sometimes any number, take a hostile value of
 * any type or go missing; a few stray keys too. `options` gives keys meaningful values to mix in.
 */
export function fuzzedObject(
  base: Record<string, unknown>,
  options: Record<string, readonly unknown[]> = {},
): fc.Arbitrary<Record<string, unknown>> {
  const anyValue: fc.Arbitrary<unknown> = fc.oneof(
    { arbitrary: hostileText, weight: 4 },
    { arbitrary: hostileJson, weight: 2 },
    { arbitrary: fc.oneof(fc.double(), fc.integer(), fc.boolean()), weight: 2 },
  )
  const names = [...new Set([...Object.keys(base), ...Object.keys(options)])]
  const changes = names.map((name) => {
    const choices: fc.WeightedArbitrary<{ set: boolean; value?: unknown }>[] = [
      { arbitrary: anyValue.map((value) => ({ set: true, value })), weight: 3 },
      { arbitrary: fc.constant({ set: false }), weight: 1 },
    ]
    if (options[name]?.length) {
      choices.push({
        arbitrary: fc.constantFrom(...options[name]!).map((value) => ({ set: true, value })),
        weight: 2,
      })
    }
    return fc.oneof(...choices)
  })
  const changed = fc.oneof(
    { arbitrary: fc.subarray(names, { minLength: 0, maxLength: Math.min(2, names.length) }), weight: 3 },
    { arbitrary: fc.subarray(names), weight: 1 },
  )
  const stray = fc.oneof(
    { arbitrary: fc.constant({}), weight: 3 },
    {
      arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), anyValue, { minKeys: 1, maxKeys: 2 }),
      weight: 1,
    },
  )
  return fc.tuple(changed, fc.tuple(...changes), stray).map(([which, values, extra]) => {
    const object: Record<string, unknown> = { ...extra }
    names.forEach((name, index) => {
      const choice = which.includes(name) ? values[index]! : { set: name in base, value: base[name] }
      if (choice.set) object[name] = choice.value
      else delete object[name]
    })
    return object
  })
}

/** A JSON body: usually a fuzzed object, sometimes any JSON, sometimes text that is not JSON. */
export function jsonBody(object: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: object.map((value) => JSON.stringify(value)), weight: 6 },
    { arbitrary: hostileJson.map((value) => JSON.stringify(value) ?? ''), weight: 2 },
    { arbitrary: hostileText, weight: 2 },
    // Nesting far deeper than any form of ours, written as text (JSON.stringify would overflow).
    {
      arbitrary: fc
        .integer({ min: 1000, max: 100_000 })
        .map((depth) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`),
      weight: 1,
    },
  )
}

// ---------------------------------------------------------------------------------------------
// Reading an answer

export type Answer = {
  status: number
  /** The texts the person reads (message, error, form and field messages, the page's text). */
  messages: string[]
  /** A refusal: 4xx, `ok: false`, or an `error`. */
  refused: boolean
  location: string | null
  /** What was thrown that is not a router answer (React Router would answer it 500). */
  crash?: unknown
  /** A `data(null, { status })` thrown without words: the page's error boundary words it. */
  wordless: boolean
  /** Returned (not thrown) to the page, which may word a refusal itself. */
  returned: boolean
}

function textsOf(body: unknown): string[] {
  if (typeof body === 'string') return [body]
  if (!body || typeof body !== 'object') return []
  const record = body as Record<string, unknown>
  const texts: string[] = []
  for (const key of ['message', 'error']) if (typeof record[key] === 'string') texts.push(record[key])
  // A form action's answer (app/utils/action-answer.ts): each form-level message, each field's.
  if (Array.isArray(record.messages))
    texts.push(...record.messages.filter((e): e is string => typeof e === 'string'))
  for (const value of Object.values((record.fieldErrors ?? {}) as object)) {
    if (typeof value === 'string') texts.push(value)
  }
  return texts
}

function isRefusedBody(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false
  const record = body as Record<string, unknown>
  if (record.ok === false) return true
  return typeof record.error === 'string'
}

/** Runs a loader or action and reads what it returned or threw as the person would get it. */
export async function answerOf(run: () => unknown): Promise<Answer> {
  let value: unknown
  let thrown = false
  try {
    value = await run()
  } catch (error) {
    value = error
    thrown = true
  }
  if (value instanceof Response) {
    const type = value.headers.get('Content-Type') ?? ''
    const text = await value.text()
    let body: unknown = text
    if (type.includes('json')) body = text ? (JSON.parse(text) as unknown) : null
    else if (type.includes('html'))
      body = {
        message: text
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      }
    const status = value.status
    return {
      status,
      messages: typeof body === 'string' ? (status >= 400 ? [body] : []) : textsOf(body),
      refused: status >= 400 || isRefusedBody(body),
      location: value.headers.get('Location'),
      wordless: false,
      returned: !thrown,
    }
  }
  const wrapped = value as { type?: unknown; data?: unknown; init?: ResponseInit | null } | null
  if (wrapped && typeof wrapped === 'object' && wrapped.type === 'DataWithResponseInit') {
    const status = wrapped.init?.status ?? 200
    const messages = textsOf(wrapped.data)
    return {
      status,
      messages,
      refused: status >= 400 || isRefusedBody(wrapped.data),
      location: null,
      wordless: thrown && messages.length === 0,
      returned: !thrown,
    }
  }
  if (thrown) {
    return {
      status: 500,
      messages: [],
      refused: true,
      location: null,
      crash: value,
      wordless: false,
      returned: false,
    }
  }
  return {
    status: 200,
    messages: textsOf(value),
    refused: isRefusedBody(value),
    location: null,
    wordless: false,
    returned: true,
  }
}

/** Words a framework, a driver or a validator library writes, never our Spanish texts. */
const FOREIGN =
  /Unexpected Server Error|Internal Server Error|Bad Request|Not Found|Forbidden|Unauthorized|Error:\s*\w*Error|TypeError|SyntaxError|RangeError|ReferenceError|ZodError|Invalid input|invalid_type|too_(big|small)|Expected |Received |Required|must be|is not|cannot|undefined|\[object |\bnull\b|\b(missing|malformed|mismatch|stale|failed)\b|duplicate key|violates|relation "|column "|syntax error|invalid byte sequence|\n\s+at /i

/**
 * A Spanish letter, a common Spanish word or one of the store's own words: our messages are
 * Spanish sentences or phrases, never codes.
 */
const SPANISH = new RegExp(
  '[áéíóúñ¿¡]|\\b(' +
    'el|la|los|las|de|del|no|un|una|es|en|que|por|para|con|se|tu|su|al|lo|sin|ya|este|esta|debe|ser|hay|' +
    'muy|demasiado|demasiados|falta|o|y|cuerpo|ilegible|firma|pago|pedido|datos|producto|nombre' +
    ')\\b',
  'i',
)

export function isSpanishMessage(text: string): boolean {
  const trimmed = text.trim()
  return trimmed.length > 0 && trimmed.length <= 500 && !FOREIGN.test(trimmed) && SPANISH.test(trimmed)
}

/**
 * The property: never a 5xx; a refusal says why in Spanish (a thrown 404/405 is the not-found page;
 * with `pageWords`, a page loader's returned refusal without words is worded by its component).
 */
export function expectWellAnswered(answer: Answer, input: unknown, pageWords = false) {
  const where = () => `\nentrada: ${preview(input)}\nrespuesta: ${preview(answer)}`
  if (answer.crash)
    throw new Error(`La ruta lanzó un error (sería un 500): ${String(answer.crash)}${where()}`)
  expect(answer.status, `estado ${answer.status}${where()}`).toBeLessThan(500)
  if (!answer.refused) return
  if (answer.wordless && (answer.status === 404 || answer.status === 405)) return
  if (pageWords && answer.returned && answer.messages.length === 0) return
  expect(answer.messages.length, `rechazo sin mensaje${where()}`).toBeGreaterThan(0)
  for (const message of answer.messages) {
    expect(isSpanishMessage(message), `mensaje que no es español: ${JSON.stringify(message)}${where()}`).toBe(
      true,
    )
  }
}

function preview(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) =>
    v instanceof File
      ? `[File ${v.name.slice(0, 40)}]`
      : typeof v === 'string' && v.length > 120
        ? `${v.slice(0, 120)}…(${v.length})`
        : v,
  )
  return (text ?? String(value)).slice(0, 2000)
}

// ---------------------------------------------------------------------------------------------
// Nothing written

const tablesOf = new WeakMap<Database, string>()

/**
 * One query that sums up every table of the app and the job queue (pgboss.job holds every queue's
 * jobs): name → row count and an order-free checksum of its rows (a sum of row hashes: no sort).
 * The request-limit counters are left out: every request counts against its limit, refused or not,
 * which is their purpose, not a write of the shop's data.
 */
/**
 * Columns a refused request may still write: the guard records an accepted request as the
 * session's use (at most once a minute), whatever the action then answers.
 */
const BOOKKEEPING_COLUMNS: Record<string, readonly string[]> = {
  'public.admin_sessions': ['last_seen_at'],
}

async function checksumQuery(database: Database): Promise<string> {
  const cached = tablesOf.get(database)
  if (cached) return cached
  const { rows } = await database.executeSql(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and (table_schema = 'public' or (table_schema = 'pgboss' and table_name = 'job'))
        and not (table_schema = 'public' and table_name = 'rate_limits')
      order by 1`,
  )
  const query = (rows as { name: string }[])
    .map(({ name }) => {
      const quoted = name
        .split('.')
        .map((part) => `"${part}"`)
        .join('.')
      const skipped = BOOKKEEPING_COLUMNS[name] ?? []
      const row = skipped.length
        ? `(to_jsonb(t) ${skipped.map((column) => `- '${column}'`).join(' ')})::text`
        : 't::text'
      return `select '${name}' as name, count(*) || ':' || coalesce(sum(hashtextextended(${row}, 0)::numeric), 0) as sum from ${quoted} t`
    })
    .join(' union all ')
  tablesOf.set(database, query)
  return query
}

export async function tableChecksums(database: Database): Promise<Map<string, string>> {
  const result = await database.executeSql(await checksumQuery(database))
  return new Map((result.rows as { name: string; sum: string }[]).map((row) => [row.name, row.sum]))
}

/** The tables whose checksum changed between two snapshots, leaving out `allowed` ones. */
export function changedTables(
  before: Map<string, string>,
  after: Map<string, string>,
  allowed: readonly string[] = [],
): string[] {
  const names = new Set([...before.keys(), ...after.keys()])
  return [...names].filter((name) => !allowed.includes(name) && before.get(name) !== after.get(name))
}

// ---------------------------------------------------------------------------------------------
// Running a property

const tried = new Map<string, Map<number, number>>()

function count(name: string, status: number) {
  const statuses = tried.get(name) ?? new Map<number, number>()
  statuses.set(status, (statuses.get(status) ?? 0) + 1)
  tried.set(name, statuses)
}

/** Prints how many inputs were tried, by endpoint and status (to see they reach the validation). */
export function reportInputsTried(file: string) {
  let total = 0
  const lines = [...tried].map(([name, statuses]) => {
    const n = [...statuses.values()].reduce((sum, k) => sum + k, 0)
    total += n
    const byStatus = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, k]) => `${status}×${k}`)
      .join(' ')
    return `  ${name}: ${n} (${byStatus})`
  })
  console.info(`[fuzz] ${file}: ${total} entradas probadas (${FUZZ_RUNS} por propiedad)\n${lines.join('\n')}`)
  return total
}

/**
 * Fuzzes one endpoint: `send` posts a generated input and answers; the answer must keep the
 * property, and when it refuses, no table but `allowedWrites` may change. `fixture` makes what an
 * input acts on (an order to pay, a session to end); made outside the comparison, and kept until
 * an input succeeds (a success may use it up, a refusal leaves it as it was).
 */
export async function fuzzEndpoint<T, P = undefined>(
  name: string,
  database: Database,
  input: fc.Arbitrary<T>,
  send: (input: T, fixture: P) => Promise<Answer>,
  options: {
    allowedWrites?: readonly string[]
    numRuns?: number
    fixture?: () => Promise<P>
    /** A page's loader: its component words a refusal it returns (see `expectWellAnswered`). */
    pageWords?: boolean
  } = {},
) {
  let fixture: P | undefined
  await fc.assert(
    fc.asyncProperty(input, async (value) => {
      if (fixture === undefined && options.fixture) fixture = await options.fixture()
      const before = await tableChecksums(database)
      const answer = await send(value, fixture as P)
      count(name, answer.status)
      // FUZZ_DEBUG='POST /admin/canales' prints what each input of that endpoint was answered.
      if (process.env.FUZZ_DEBUG === name)
        console.info(answer.status, answer.messages.join(' | ').slice(0, 200))
      if (!answer.refused) fixture = undefined
      expectWellAnswered(answer, value, options.pageWords)
      if (answer.refused) {
        const after = await tableChecksums(database)
        const changed = changedTables(before, after, options.allowedWrites)
        expect(changed, `un rechazo escribió en ${changed.join(', ')}\nentrada: ${preview(value)}`).toEqual(
          [],
        )
      }
    }),
    { numRuns: options.numRuns ?? FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: false },
  )
}

/** Text that can travel in a header (printable ASCII), from any hostile text. */
export const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 4000)

let clientNumber = 0
/** A router context with its own client address, so per-address limits only bite where meant. */
export function freshContext(services: Services): RouterContextProvider {
  clientNumber++
  return routeContext(
    services,
    `10.${(clientNumber >> 16) & 255}.${(clientNumber >> 8) & 255}.${clientNumber & 255}`,
  )
}
