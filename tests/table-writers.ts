import path from 'node:path'
import ts from 'typescript'

/**
 * The machinery of the "only X writes these tables" guards (`stock-writers.test.ts`,
 * `order-writers.test.ts`): it reads the application's TypeScript with the compiler's type checker,
 * so an aliased import, a spread helper or a table handed to a generic helper is still seen, and
 * tells a guard of every place outside the owning folder that hands a guarded table to a call or
 * names it in SQL. Each guard decides which of those are writes it forbids.
 */

export const ROOT = path.resolve(import.meta.dirname, '..')
/** What runs in production. Test files and `tests/` set up data as they please and are not read. */
const CHECKED_DIRS = ['app', 'server', 'scripts'].map((dir) => path.join(ROOT, dir) + path.sep)

/** Query-builder calls that only read the table they are given. */
const READS = new Set([
  'from',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'crossJoin',
  '$count',
  'getTableColumns',
  'getTableName',
])

/** SQL words that write to (or empty) the tables a statement names. */
export const SQL_WRITE = /\b(update|insert\s+into|delete\s+from|merge\s+into|copy|truncate)\b/

/** The checked code, plus in-memory files a guard adds to show it would notice a stray write. */
export function createProgram(extraFiles: Record<string, string> = {}) {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)
  const host = ts.createCompilerHost(parsed.options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    fileName in extraFiles
      ? ts.createSourceFile(fileName, extraFiles[fileName]!, languageVersion, true)
      : getSourceFile(fileName, languageVersion, ...rest)
  const rootNames = parsed.fileNames
    .filter((file) => CHECKED_DIRS.some((dir) => path.resolve(file).startsWith(dir)))
    .concat(Object.keys(extraFiles))
  return ts.createProgram(rootNames, parsed.options, host)
}

type SqlText = ts.TemplateExpression | ts.NoSubstitutionTemplateLiteral | ts.StringLiteral

/** A place outside the owner that uses a guarded table. */
export type TableUse<T extends string> =
  | {
      kind: 'call'
      call: ts.CallExpression
      /** The called method or function (`insert`, `bulkInsert`…), '' when it has no plain name. */
      method: string
      /** The first guarded table among the arguments. */
      table: T
      /** Each argument's guarded table, if it is one. */
      tables: (T | undefined)[]
      /** `insert`, `update` or `delete` of the table itself, not a table handed to a helper. */
      writes: boolean
    }
  | {
      kind: 'sql'
      node: SqlText
      /** Lower case; where a template interpolates, ' ? '. */
      text: string
      /** Tables interpolated into a template (`sql\`update ${orders} …\``). */
      interpolated: Set<T>
      /** Tables whose SQL name the text spells out. */
      named: Set<T>
    }

export type TableGuard<T extends string> = {
  /** The folder allowed to write the tables, from the repository root. */
  owner: string
  /** Each guarded table's export name, with the file exporting it and its SQL name. */
  tables: Record<T, { file: string; sql: string }>
  /** Reports the uses it forbids. */
  check: (use: TableUse<T>, report: (node: ts.Node, what: string) => void) => void
}

/** Every violation `guard.check` reports outside its owner, as `file:line what`. */
export function findTableWriters<T extends string>(program: ts.Program, guard: TableGuard<T>): string[] {
  const ownerDir = path.join(ROOT, guard.owner) + path.sep
  const names = Object.keys(guard.tables) as T[]
  const checker = program.getTypeChecker()
  const guardedSymbols = new Map<ts.Symbol, T>()
  for (const name of names) {
    const { file } = guard.tables[name]
    const source = program.getSourceFile(path.join(ROOT, file))
    const symbol = source && checker.getSymbolAtLocation(source)?.exports?.get(name as string as ts.__String)
    if (!symbol) throw new Error(`${name} is no longer exported by ${file}: update this test`)
    guardedSymbols.set(symbol, name)
  }

  // Only names that can be a guarded table are resolved: asking the checker about every call
  // argument of the app would type-check all of it.
  const candidateNames = new Set<string>(names)
  const tableOf = (node: ts.Node): T | undefined => {
    const target = ts.isParenthesizedExpression(node) ? node.expression : node
    const name = ts.isIdentifier(target)
      ? target.text
      : ts.isPropertyAccessExpression(target)
        ? target.name.text
        : undefined
    if (!name || !candidateNames.has(name)) return undefined
    let symbol = checker.getSymbolAtLocation(target)
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
    return symbol ? guardedSymbols.get(symbol) : undefined
  }
  const sqlNames = names.map((name) => [name, new RegExp(`\\b${guard.tables[name].sql}\\b`)] as const)

  const violations: string[] = []
  for (const source of program.getSourceFiles()) {
    const file = path.resolve(source.fileName)
    if (source.isDeclarationFile || file.startsWith(ownerDir)) continue
    if (!CHECKED_DIRS.some((dir) => file.startsWith(dir)) || /\.test\.tsx?$/.test(file)) continue
    const report = (node: ts.Node, what: string) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
      violations.push(`${path.relative(ROOT, file)}:${line + 1} ${what}`)
    }

    for (const statement of source.statements) {
      const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined
      if (!bindings || !ts.isNamedImports(bindings)) continue
      for (const element of bindings.elements) {
        if (element.propertyName && element.propertyName.text in guard.tables)
          candidateNames.add(element.name.text)
      }
    }

    const checkCall = (call: ts.CallExpression) => {
      const method = ts.isPropertyAccessExpression(call.expression)
        ? call.expression.name.text
        : ts.isIdentifier(call.expression)
          ? call.expression.text
          : ''
      const tables = call.arguments.map(tableOf)
      const table = tables.find(Boolean)
      if (!table || READS.has(method)) return
      const writes = ['insert', 'update', 'delete'].includes(method) && Boolean(tables[0])
      guard.check({ kind: 'call', call, method, table, tables, writes }, report)
    }

    const checkSqlText = (node: SqlText) => {
      const text = (
        ts.isTemplateExpression(node)
          ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ? ')
          : node.text
      ).toLowerCase()
      const interpolated = new Set(
        ts.isTemplateExpression(node)
          ? node.templateSpans.map((span) => tableOf(span.expression)).filter((table) => table !== undefined)
          : [],
      )
      const named = new Set(sqlNames.filter(([, pattern]) => pattern.test(text)).map(([name]) => name))
      if (interpolated.size || named.size) {
        guard.check({ kind: 'sql', node, text, interpolated, named }, report)
      }
    }

    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) checkCall(node)
      if (
        ts.isTemplateExpression(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isStringLiteral(node)
      ) {
        checkSqlText(node)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return violations
}

/**
 * The rule for a table nobody else may write at all: its insert, update or delete, and the table
 * handed to any other function (a bulk insert helper…), where it may be written.
 */
export function reportCallWrite<T extends string>(
  use: Extract<TableUse<T>, { kind: 'call' }>,
  report: (node: ts.Node, what: string) => void,
  owner: string,
) {
  report(
    use.call,
    use.writes
      ? `${use.method}(${use.table}): only ${owner} writes it`
      : `passes ${use.table} to ${use.method || 'a function'}`,
  )
}
