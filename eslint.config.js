import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * The module map (docs/architecture.md): for each folder of app/modules, the other modules its code
 * may import. It stays acyclic (app/modules/module-map.test.ts proves it), so every rule has one
 * home and a module can be read, tested and changed from the bottom up. Any module may still import
 * another's `schema.ts`: the Drizzle tables are the data floor (app/db/schema.ts collects them), and
 * who may write a table is guarded by tests such as app/modules/inventory/stock-writers.test.ts.
 */
export const MODULE_MAP = {
  auth: [],
  audit: ['auth'],
  inventory: [],
  media: [],
  'rate-limits': [],
  places: [],
  carriers: ['catalog', 'order', 'places', 'settings'],
  analytics: ['auth', 'rate-limits'],
  'page-cache': ['analytics', 'auth'],
  channels: ['inventory'],
  messages: ['channels'],
  order: ['channels', 'inventory', 'messages', 'places'],
  marketing: ['analytics', 'auth', 'order', 'rate-limits'],
  cart: ['catalog', 'marketing'],
  settings: ['cart', 'media', 'messages', 'places'],
  catalog: ['inventory', 'media'],
  payment: ['marketing', 'media', 'order', 'settings'],
  invoicing: ['catalog', 'order', 'settings'],
  promotions: ['catalog', 'order'],
  feeds: ['catalog', 'media', 'promotions'],
  checkout: [
    'carriers',
    'cart',
    'catalog',
    'inventory',
    'marketing',
    'order',
    'payment',
    'places',
    'promotions',
    'settings',
  ],
  import: ['analytics', 'catalog', 'inventory', 'media', 'order'],
}

/** The services registry and its router-context key: routes and middleware hand modules the parts. */
const REGISTRY = ['services.server.ts', 'services-context.server.ts']

export default tseslint.config(
  { ignores: ['build/', '.build/', 'data/', '.react-router/', 'node_modules/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Floors (docs: design "one home per rule"): routes → components → modules → db / jobs → utils.
  // Each layer imports only from layers below it, type imports included. Module tests set up
  // whatever they need from other modules and the registry, but never reach a route or component.
  {
    files: ['app/modules/**'],
    rules: {
      'no-restricted-imports': ['error', floor('A module', ['routes', 'components'])],
    },
  },
  // Inside the floor, the module map: one entry per module, holding its floor and the modules it
  // may not import (a later entry replaces an earlier one for the same file, so each is whole).
  ...Object.keys(MODULE_MAP).map((module) => ({
    files: [`app/modules/${module}/**`],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', moduleImports(module)] },
  })),
  // Jobs sit below the modules: the app root hands the workers their handlers (jobHandlers).
  {
    files: ['app/jobs/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        floor('Job code', ['routes', 'components', 'modules', 'demo', ...REGISTRY]),
      ],
    },
  },
  {
    files: ['app/components/**'],
    rules: {
      'no-restricted-imports': ['error', floor('A component', ['routes'])],
    },
  },
  {
    files: ['app/utils/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        floor('A util', ['routes', 'components', 'modules', 'db', 'jobs', 'demo', ...REGISTRY]),
      ],
    },
  },
)

/** Forbids imports of these top-level folders (or files) of app/, by alias or relative path. */
function floor(who, above) {
  const names = above.map((name) => name.replace(/\./g, '\\.')).join('|')
  return {
    patterns: [
      {
        regex: `^(#app/|(\\.\\./)+|.*/app/)(${names})(/|$)`,
        message: `${who} never imports from app/${above.join(', app/')} (floors in docs: routes → components → modules → db / jobs → utils).`,
      },
    ],
  }
}

/**
 * What a module's code may not import: the floors above it and the services registry, and every
 * module its MODULE_MAP entry does not list, by alias or relative path, except that module's
 * `schema.ts`.
 */
function moduleImports(module) {
  const above = ['routes', 'components', ...REGISTRY]
  const allowed = MODULE_MAP[module]
  const refused = Object.keys(MODULE_MAP).filter((other) => other !== module && !allowed.includes(other))
  return {
    patterns: [
      ...floor('A module', above).patterns,
      ...refused.map((other) => ({
        regex: `^(#app/modules/|(\\.\\./)+(modules/)?|.*/app/modules/)${other}/(?!schema(\\.ts)?$)`,
        message: `The ${module} module may not import the ${other} module: the module map (MODULE_MAP in eslint.config.js, docs/architecture.md) lets it import ${allowed.join(', ') || 'no other module'}, and any module's schema.ts.`,
      })),
    ],
  }
}
