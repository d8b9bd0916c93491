import { defineConfig } from 'vitest/config';

/**
 * The side-by-side Vitest benchmarks (`npm run bench:vitest`): the headless clients in Node, the
 * React hooks in jsdom (render.bench.tsx says so itself). Chatwire from its sources, the peers from
 * this folder's install.
 */
export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions: ['@chatwire/source'] },
  ssr: { resolve: { conditions: ['@chatwire/source'], externalConditions: ['@chatwire/source'] } },
  test: { benchmark: { include: ['*.bench.{ts,tsx}'] } },
});
