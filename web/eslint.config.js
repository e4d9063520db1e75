// ESLint flat config: typescript-eslint for the app and its tests, the React hooks rules
// (including the React Compiler checks of eslint-plugin-react-hooks 7) for components, and
// plain JS rules with Node globals for the end-to-end scripts; and the boundary between features: a
// feature (src/features/<name>) imports from components/, lib/, config/ and its own folder, never from
// another feature or from app/ (app/ composes features), except the types of the tournament (its
// phases), which other features may import as types only (docs/site.md, "The web app's layout").
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig, globalIgnores } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)

const APART = 'Features stay apart: import from components/, lib/ or config/, or let app/ compose the two features.'

/** The imports a file of feature `name` may not make. */
function featureBoundary(name, atRoot) {
  const patterns = [
    { regex: `^@/features/(?!${name}/|tournament/types$)`, message: APART },
    { regex: '^@/app(/|$)', message: 'app/ composes the features; a feature does not import it.' },
    { regex: atRoot ? '^\\.\\./' : '^(\\.\\./){2,}', message: `Leaves features/${name}: use an @/ path (and see above).` },
  ]
  if (name !== 'tournament') {
    patterns.push({ regex: '^@/features/tournament/types$', allowTypeImports: true, message: 'Only the types of the tournament cross features: `import type`.' })
  }
  return { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] }
}

export default defineConfig([
  globalIgnores(['dist/', 'coverage/', 'e2e/screenshots/', 'e2e/.tmp/']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // `_` marks a parameter or binding kept on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  ...FEATURES.flatMap((name) => [
    { files: [`src/features/${name}/*/**/*.{ts,tsx}`], rules: featureBoundary(name, false) },
    { files: [`src/features/${name}/*.{ts,tsx}`], rules: featureBoundary(name, true) },
  ]),
  {
    files: ['vite.config.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
  },
  {
    // Code passed to page.evaluate / waitForFunction runs in the browser.
    files: ['e2e/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The service worker (Web Push) runs in its own global scope.
    files: ['public/sw.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.serviceworker } },
  },
])
