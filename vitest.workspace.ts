import type { TestProjectInlineConfiguration } from 'vitest/config';

/** Resolve workspace packages to their TypeScript sources (no build step in tests). */
const sourceConditions = { conditions: ['@chatwire/source'] };

const project = (name: string, environment: 'node' | 'jsdom', root = `packages/${name}`): TestProjectInlineConfiguration => ({
  resolve: sourceConditions,
  ssr: { resolve: { conditions: ['@chatwire/source'], externalConditions: ['@chatwire/source'] } },
  test: {
    name,
    root,
    environment,
    include: ['tests/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    // React tests fail on React's own warnings and wait longer for lazily imported modules.
    ...(environment === 'jsdom' ? { setupFiles: ['../../tests/reactTestSetup.ts'] } : {}),
  },
});

/**
 * One Vitest project per package, plus the demo's own tests (library tests never import the demo);
 * the root vitest.config.ts runs exactly these.
 */
export default [
  project('core', 'node'),
  project('server', 'node'),
  project('react', 'jsdom'),
  project('devtools', 'jsdom'),
  project('code-mode', 'node'),
  project('mcp', 'node'),
  project('ui', 'jsdom'),
  project('demo', 'node', 'apps/demo'),
  // The repository's own scripts (the snippet check).
  { test: { name: 'scripts', root: 'scripts', environment: 'node', include: ['tests/**/*.test.mjs'], testTimeout: 60_000 } },
] satisfies TestProjectInlineConfiguration[];
