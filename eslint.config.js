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
 * - Core's and the server's folders are layers with one direction (`CORE_LAYERS`, `SERVER_LAYERS`,
 *   lowest first): a module imports its own folder and the folders below it, never one above, never
 *   an entry file at `src/` (core: `index.ts`, `shared.ts`, `wire.ts`, `mcpApps.ts`; server:
 *   `index.ts`, `extension.ts`, `testing.ts`), never its own package by name, in static imports,
 *   re-exports, `import()` and type-level `import('...')` alike. A file in a folder the list does not
 *   name, or a loose file beside the entries, is an error too. ESLint's own `no-restricted-imports` and
 *   `no-restricted-syntax`, generated from the lists by `layerRules`: no plugin, and the message names
 *   the layer that was crossed. `scripts/tests/layers.test.mjs` lints fixtures against this
 *   config to prove the rules bite; `scripts/folderCycles.mjs` (dependency-cruiser) finds import cycles between folders.
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

/**
 * packages/server/src's folders, lowest first (docs/architecture.md draws them). Only the entries
 * (`index.ts`, `extension.ts`, `testing.ts`) sit at src/, and nothing inside imports them.
 */
export const SERVER_LAYERS = [
  'binding',
  'errors',
  'store',
  'attachments',
  'http',
  'input',
  'history',
  'model',
  'tools',
  'extensions',
  'discovery',
  'adapters',
  'approvals',
  'run',
  'telemetry',
  'resumable',
  'threads',
  'loop',
  'serve',
];

/** What packages/server/src and packages/code-mode/src may not import, besides the layers. */
const serverPaths = [
  {
    name: 'zod',
    message: "Use Standard Schema or core's jsonSchema(): @chatwire/server and @chatwire/code-mode do not depend on zod.",
  },
  { name: '@ag-ui/core/schemas', message: 'Its schemas need zod; the server checks a RunAgentInput with http/readRunInput.ts.' },
];

// esquery's regular expressions end at the first '/', so a slash inside is written \u002F.
const esqueryRegex = (sources) => `/${sources.join('|').replaceAll('/', '\\u002F')}/`;

/**
 * One config block per layer of a package's src/ (what it may not import: a folder above, an entry,
 * the package itself by name), plus one that refuses a file in a folder the list does not name and
 * one that refuses a loose file beside the entries.
 */
function layerRules({ src, layers, entries, self, paths = [] }) {
  const blocks = layers.map((layer, index) => {
    const above = layers.slice(index + 1);
    const message = `${src}/${layer} is below ${above.join(', ') || 'the entries'}: it may import only ${layers.slice(0, index + 1).join(', ')} (see the layer list in eslint.config.js).`;
    const upward = above.length > 0 ? `^(?:\\.\\./)+(?:${above.join('|')})(?:/|$)` : undefined;
    const entry = `^(?:\\.\\./)+(?:${entries.join('|')})\\.[jt]s$`;
    const selfImport = `^${self}(?:/|$)`;
    const sources = [upward, entry, selfImport].filter(Boolean);
    const bySource = esqueryRegex(sources);
    return {
      files: [`${src}/${layer}/**/*.ts`],
      rules: {
        'no-restricted-imports': ['error', { paths, patterns: sources.map((regex) => ({ regex, message })) }],
        'no-restricted-syntax': [
          'error',
          { selector: `ImportExpression[source.value=${bySource}]`, message },
          { selector: `TSImportType[argument.literal.value=${bySource}]`, message },
        ],
      },
    };
  });
  const unlisted = {
    files: [`${src}/*/**/*.ts`],
    ignores: layers.map((layer) => `${src}/${layer}/**`),
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program',
          message: `This folder is not a layer: add it to the layer list of ${src} in eslint.config.js, or move the file into one.`,
        },
      ],
    },
  };
  const loose = {
    files: [`${src}/*.ts`],
    ignores: entries.map((entry) => `${src}/${entry}.ts`),
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program',
          message: `Only the entries (${entries.join(', ')}) sit at ${src}/: move this file into the folder (layer) it belongs to.`,
        },
      ],
    },
  };
  return [...blocks, unlisted, loose];
}

const coreLayerRules = layerRules({
  src: 'packages/core/src',
  layers: CORE_LAYERS,
  entries: ['index', 'shared', 'wire', 'mcpApps'],
  self: '@chatwire/core',
});

const serverLayerRules = layerRules({
  src: 'packages/server/src',
  layers: SERVER_LAYERS,
  entries: ['index', 'extension', 'testing'],
  self: '@chatwire/server',
  paths: serverPaths,
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
  ...serverLayerRules,
  {
    // Code Mode builds on the server's public entries only, and neither package forces a schema library on an app:
    // no zod, and not @ag-ui/core/schemas (zod is an optional peer of @ag-ui/core, needed only by that entry).
    files: ['packages/code-mode/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: serverPaths,
          patterns: [
            {
              regex: '^@chatwire/server/(?!extension$)',
              message:
                "Import the server's public entries, @chatwire/server or @chatwire/server/extension (add a documented export if something is missing).",
            },
            {
              group: ['@chatwire/*/src/*', '**/server/src/**', '../../server/**'],
              message:
                "Import the server's public entries, @chatwire/server or @chatwire/server/extension (add a documented export if something is missing).",
            },
          ],
        },
      ],
    },
  },
  {
    // MCP builds on the server's public entries too (zod stays allowed there: it reads the mcpServers configuration).
    files: ['packages/mcp/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@chatwire/server/(?!extension$)',
              message:
                "Import the server's public entries, @chatwire/server or @chatwire/server/extension (add a documented export if something is missing).",
            },
            {
              group: ['@chatwire/*/src/*', '**/server/src/**', '../../server/**'],
              message:
                "Import the server's public entries, @chatwire/server or @chatwire/server/extension (add a documented export if something is missing).",
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
