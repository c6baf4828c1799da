import path from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'
import { STOCK_COLUMNS } from './stock.server.ts'

/**
 * Inventory is the only writer of product stock, reserved units, units in and out, cost, location
 * stock and the ledger. This test reads the application's TypeScript with the compiler's type
 * checker (so an aliased import, a spread helper or a table handed to a generic insert helper is
 * still seen) and lists every place outside `app/modules/inventory/` that could write them.
 * Test files and `tests/` set up data as they please and are not read.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..')
const INVENTORY_DIR = path.join(ROOT, 'app/modules/inventory') + path.sep
const CHECKED_DIRS = ['app', 'server', 'scripts'].map((dir) => path.join(ROOT, dir) + path.sep)

type Guarded = 'products' | 'productLocations' | 'stockMovements'
const GUARDED_TABLES: Record<Guarded, string> = {
  products: 'app/modules/catalog/schema.ts',
  productLocations: 'app/modules/inventory/schema.ts',
  stockMovements: 'app/modules/inventory/schema.ts',
}
const SQL_NAMES: Record<Guarded, string> = {
  products: 'products',
  productLocations: 'product_locations',
  stockMovements: 'stock_movements',
}
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
/** Builder calls whose argument holds the columns an insert or update writes. */
const WRITTEN_VALUES = new Set(['values', 'set', 'onConflictDoUpdate'])
const SQL_COLUMNS = ['stock', 'reserved', 'units_in', 'units_out', 'cost']

function createProgram(extraFiles: Record<string, string>) {
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

/** Every place outside inventory that writes a stock column, a location or the ledger. */
function findStockWriters(program: ts.Program): string[] {
  const checker = program.getTypeChecker()
  const guardedSymbols = new Map<ts.Symbol, Guarded>()
  for (const [name, file] of Object.entries(GUARDED_TABLES) as [Guarded, string][]) {
    const source = program.getSourceFile(path.join(ROOT, file))
    const symbol = source && checker.getSymbolAtLocation(source)?.exports?.get(name as ts.__String)
    if (!symbol) throw new Error(`${name} is no longer exported by ${file}: update this test`)
    guardedSymbols.set(symbol, name)
  }

  // Only names that can be a guarded table are resolved: asking the checker about every call
  // argument of the app would type-check all of it.
  const candidateNames = new Set<string>(Object.keys(GUARDED_TABLES))
  const tableOf = (node: ts.Node): Guarded | undefined => {
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

  /** The stock columns a value written to `products` (an object, or an array of them) may set. */
  const stockColumnsIn = (type: ts.Type): string[] => {
    if (type.isUnion()) return [...new Set(type.types.flatMap(stockColumnsIn))]
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      return [...new Set(checker.getTypeArguments(type as ts.TypeReference).flatMap(stockColumnsIn))]
    }
    return STOCK_COLUMNS.filter((column) => type.getProperty(column))
  }

  const violations: string[] = []
  for (const source of program.getSourceFiles()) {
    const file = path.resolve(source.fileName)
    if (source.isDeclarationFile || file.startsWith(INVENTORY_DIR)) continue
    if (!CHECKED_DIRS.some((dir) => file.startsWith(dir)) || /\.test\.tsx?$/.test(file)) continue
    const report = (node: ts.Node, what: string) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
      violations.push(`${path.relative(ROOT, file)}:${line + 1} ${what}`)
    }

    for (const statement of source.statements) {
      const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined
      if (!bindings || !ts.isNamedImports(bindings)) continue
      for (const element of bindings.elements) {
        if (element.propertyName && element.propertyName.text in GUARDED_TABLES)
          candidateNames.add(element.name.text)
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

    const checkCall = (call: ts.CallExpression) => {
      const method = ts.isPropertyAccessExpression(call.expression)
        ? call.expression.name.text
        : ts.isIdentifier(call.expression)
          ? call.expression.text
          : ''
      const tables = call.arguments.map(tableOf)
      const table = tables.find(Boolean)
      if (!table || READS.has(method)) return
      if (['insert', 'update', 'delete'].includes(method) && tables[0]) {
        if (table !== 'products') return report(call, `${method}(${table}): only inventory writes it`)
        if (method === 'delete') return
        // Follow the builder chain: insert(products).values(…).onConflictDoUpdate({ set }) …
        let link: ts.Node = call
        while (ts.isPropertyAccessExpression(link.parent) && ts.isCallExpression(link.parent.parent)) {
          const next = link.parent.parent
          if (WRITTEN_VALUES.has(link.parent.name.text)) {
            for (const argument of next.arguments) {
              const type = checker.getTypeAtLocation(argument)
              const written =
                link.parent.name.text === 'onConflictDoUpdate'
                  ? (() => {
                      const set = type.getProperty('set')
                      return set ? stockColumnsIn(checker.getTypeOfSymbolAtLocation(set, argument)) : []
                    })()
                  : stockColumnsIn(type)
              if (written.length) {
                report(argument, `${method}(products) sets ${written.join(', ')}: only inventory writes it`)
              }
            }
          }
          link = next
        }
        return
      }
      // A table handed to any other function (a bulk insert helper…) may be written there.
      if (table !== 'products') return report(call, `passes ${table} to ${method || 'a function'}`)
      const written = call.arguments
        .filter((_, index) => !tables[index])
        .flatMap((argument) => stockColumnsIn(checker.getTypeAtLocation(argument)))
      if (written.length)
        report(call, `passes products with ${written.join(', ')} to ${method || 'a function'}`)
    }

    const checkSqlText = (
      node: ts.TemplateExpression | ts.NoSubstitutionTemplateLiteral | ts.StringLiteral,
    ) => {
      const text = (
        ts.isTemplateExpression(node)
          ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ? ')
          : node.text
      ).toLowerCase()
      // The ledger and location tables named in raw SQL at all: reads go through the schema.
      for (const table of ['productLocations', 'stockMovements'] as const) {
        if (new RegExp(`\\b${SQL_NAMES[table]}\\b`).test(text)) report(node, `SQL names ${table}`)
      }
      if (!/\b(update|insert\s+into|delete\s+from|merge\s+into|copy|truncate)\b/.test(text)) return
      const named = new Set(
        ts.isTemplateExpression(node)
          ? node.templateSpans.map((span) => tableOf(span.expression)).filter(Boolean)
          : [],
      )
      for (const table of named) {
        if (table !== 'products') report(node, `SQL writes ${table}: only inventory writes it`)
      }
      if (!named.has('products') && !/\bproducts\b/.test(text)) return
      if (/\btruncate\b/.test(text)) report(node, 'SQL truncates products with their stock')
      else if (SQL_COLUMNS.some((column) => new RegExp(`\\b${column}\\s*=`).test(text))) {
        report(node, 'SQL writes stock columns of products: only inventory writes them')
      }
    }

    visit(source)
  }
  return violations
}

test('only inventory writes stock, reserved, units in/out, cost, locations and the ledger', () => {
  // A file that breaks the rule every way the test knows of, to show the test would notice.
  const probe = path.join(ROOT, 'app/modules/catalog/stock-writer-probe.ts')
  const program = createProgram({
    [probe]: `
      import { sql } from 'drizzle-orm'
      import { bulkInsert } from '#app/db/bulk-insert.server.ts'
      import type { Tx } from '#app/db/client.server.ts'
      import { products as p } from '#app/modules/catalog/schema.ts'
      import { productLocations, stockMovements } from '#app/modules/inventory/schema.ts'
      const restock = () => ({ stock: 3 })
      export async function probe(tx: Tx, rows: (typeof p.$inferInsert)[]) {
        await tx.update(p).set({ name: 'x', ...restock() })
        await tx.update(p).set({ name: 'x' })
        await tx.insert(p).values(rows)
        await tx.insert(p).values({ sku: 'a', name: 'a', searchName: 'a' }).onConflictDoUpdate({ target: p.sku, set: { cost: 1 } })
        await tx.delete(productLocations)
        await tx.select().from(stockMovements)
        await bulkInsert(tx, stockMovements, [])
        await bulkInsert(tx, p, rows)
        await tx.execute(sql\`update \${p} set reserved = 0\`)
        await tx.execute(sql\`insert into product_locations values ('a', 'b', 1)\`)
        await tx.execute(sql\`truncate \${p}, \${stockMovements}\`)
      }
    `,
  })
  const violations = findStockWriters(program)
  const probed = violations.filter((violation) =>
    violation.startsWith('app/modules/catalog/stock-writer-probe.ts'),
  )
  expect(probed.map((violation) => violation.replace(/^[^:]+:/, ''))).toEqual([
    '9 update(products) sets stock: only inventory writes it',
    '11 insert(products) sets stock, reserved, unitsIn, unitsOut, cost: only inventory writes it',
    '12 insert(products) sets cost: only inventory writes it',
    '13 delete(productLocations): only inventory writes it',
    '15 passes stockMovements to bulkInsert',
    '16 passes products with stock, reserved, unitsIn, unitsOut, cost to bulkInsert',
    '17 SQL writes stock columns of products: only inventory writes them',
    '18 SQL names productLocations',
    '19 SQL writes stockMovements: only inventory writes it',
    '19 SQL truncates products with their stock',
  ])
  expect(violations.filter((violation) => !probed.includes(violation))).toEqual([])
}, 120_000)
