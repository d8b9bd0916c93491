import type { TestProjectInlineConfiguration } from 'vitest/config';

/** Resolve workspace packages to their TypeScript sources (no build step in tests). */
const sourceConditions = { conditions: ['@chatwire/source'] };

const project = (name: string, environment: 'node' | 'jsdom'): TestProjectInlineConfiguration => ({
  resolve: sourceConditions,
  ssr: { resolve: { conditions: ['@chatwire/source'], externalConditions: ['@chatwire/source'] } },
  test: {
    name,
    root: `packages/${name}`,
    environment,
    include: ['tests/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
  },
});

/** One Vitest project per package; the root vitest.config.ts runs exactly these. */
export default [
  project('core', 'node'),
  project('server', 'node'),
  project('react', 'jsdom'),
  project('devtools', 'jsdom'),
  project('code-mode', 'node'),
] satisfies TestProjectInlineConfiguration[];
