import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * `npm run lint` (`npm run lint:fix` applies the automatic fixes).
 *
 * - typescript-eslint's recommended rules with type information (`no-floating-promises`,
 *   `no-misused-promises`, the `no-unsafe-*` family...), through the TypeScript 6 API package
 *   installed as `typescript` (TypeScript 7, which `tsc` runs, has no JavaScript API yet).
 *   Off: `require-await` (async functions that satisfy a Promise-returning contract are fine),
 *   `no-unsafe-enum-comparison` (AG-UI's `EventType` members are compared with their wire strings on
 *   purpose) and `no-unnecessary-type-assertion` (style only, and its 19 automatic fixes here broke
 *   the build: the casts it removed gave callbacks their parameter types and kept a narrowing).
 * - React's hooks rules as library authors use them: `rules-of-hooks` and `exhaustive-deps`, both
 *   errors. The plugin's React Compiler rules stay off: nothing here builds with the compiler, and
 *   they report refs read in callbacks that are created once, not during render.
 * - Tests and benchmarks relax the rules about `any` (they parse JSON and mock fetch on purpose)
 *   and accept async callbacks where a void one is expected (the test runner reports rejections).
 * - examples/ is linted without type information: its dependencies live in the example's own
 *   install (the consumer test typechecks it there, against the packed tarballs).
 * - bench/peers/ (the benchmarks beside the AI SDK, TanStack AI and Mastra) likewise: the peers that
 *   need Node 22 live in its own install, made by the benchmark commands; `npm run typecheck:bench`
 *   typechecks it there.
 * - Core's folders are layers with one direction (`CORE_LAYERS`, lowest first): a module imports
 *   its own folder and the folders below it, never one above, never an entry file (`index.ts`,
 *   `shared.ts`, `wire.ts` at `src/`), in static imports, re-exports, `import()` and type-level
 *   `import('...')` alike. ESLint's own `no-restricted-imports` and `no-restricted-syntax`, generated
 *   from the list: no plugin, and the message names the layer that was crossed.
 */

/** packages/core/src's folders, lowest first (docs/architecture.md draws them). */
export const CORE_LAYERS = [
  'base',
  'protocol',
  'lifecycle',
  'tools',
  'model',
  'discovery',
  'reduce',
  'transport',
  'inspection',
  'runtime',
  'threads',
];

/** One config block per layer: what it may not import. */
const coreLayerRules = CORE_LAYERS.map((layer, index) => {
  const above = CORE_LAYERS.slice(index + 1);
  const message = `packages/core/src/${layer} is below ${above.join(', ') || 'the entries'}: it may import only ${CORE_LAYERS.slice(0, index + 1).join(', ')} (see CORE_LAYERS in eslint.config.js).`;
  const upward = above.length > 0 ? `^(?:\\.\\./)+(?:${above.join('|')})(?:/|$)` : undefined;
  const entry = '^(?:\\.\\./)+[^./][^/]*\\.[jt]s$';
  const self = '^@chatwire/core(?:/|$)';
  const sources = [upward, entry, self].filter(Boolean);
  // esquery's regular expressions end at the first '/', so a slash inside is written \u002F.
  const bySource = `/${sources.join('|').replaceAll('/', '\\u002F')}/`;
  return {
    files: [`packages/core/src/${layer}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: sources.map((regex) => ({ regex, message })) }],
      'no-restricted-syntax': [
        'error',
        { selector: `ImportExpression[source.value=${bySource}]`, message },
        { selector: `TSImportType[argument.literal.value=${bySource}]`, message },
      ],
    },
  };
});

export default defineConfig(
  globalIgnores(['**/dist/', '**/node_modules/', 'test-results/', 'playwright-report/']),
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      ecmaVersion: 2023,
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // A named options interface that extends one type (for its TSDoc) is not an empty type.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Unused on purpose when prefixed with `_`.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['packages/*/tests/**', 'packages/*/bench/**', 'packages/*/load/**', 'apps/demo/e2e/**', 'apps/demo/tests/**', 'tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // An async callback's rejection in a test is reported by Vitest or Playwright and fails the run.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  ...coreLayerRules,
  {
    // Code Mode builds on the server's public entry only, and neither package forces a schema library on an app:
    // no zod, and not @ag-ui/core/schemas (zod is an optional peer of @ag-ui/core, needed only by that entry).
    files: ['packages/server/src/**', 'packages/code-mode/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'zod',
              message: "Use Standard Schema or core's jsonSchema(): @chatwire/server and @chatwire/code-mode do not depend on zod.",
            },
            { name: '@ag-ui/core/schemas', message: 'Its schemas need zod; the server checks a RunAgentInput with http/readRunInput.ts.' },
          ],
          patterns: [
            {
              group: ['@chatwire/server/*', '@chatwire/*/src/*', '**/server/src/**', '../../server/**'],
              message: "Import the server's public entry, @chatwire/server (add a documented export if something is missing).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}', 'examples/**', 'bench/peers/**'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { parserOptions: { projectService: false } },
  },
);
