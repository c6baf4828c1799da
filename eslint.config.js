import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

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
  // Each layer imports only from layers below it, type imports included.
  {
    files: ['app/modules/**'],
    rules: {
      'no-restricted-imports': ['error', floor('A module', ['routes', 'components'])],
    },
  },
  // Modules get the registry's parts as arguments; only the request guard still reaches for it.
  {
    files: ['app/modules/**'],
    ignores: ['**/*.test.ts', 'app/modules/auth/guard.server.ts'],
    rules: {
      'no-restricted-imports': ['error', floor('A module', ['routes', 'components', 'services.server.ts'])],
    },
  },
  // Inside the modules too: catalogue code stores its files through media and checks orders, so
  // media and order never import the catalogue back (no cycles).
  {
    files: ['app/modules/media/**', 'app/modules/order/**'],
    // Tests set up whatever rows they need.
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        floor('Media and order code', ['routes', 'components', 'services.server.ts', 'modules/catalog']),
      ],
    },
  },
  // Jobs sit below the modules: the app root hands the workers their handlers (jobHandlers).
  {
    files: ['app/jobs/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        floor('Job code', ['routes', 'components', 'modules', 'demo', 'services.server.ts']),
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
        floor('A util', ['routes', 'components', 'modules', 'db', 'jobs', 'demo', 'services.server.ts']),
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
