import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

export default defineConfig({
  test: {
    projects,
    // @chatwire/devtools has no tests until its panel lands (issue 6); remove this then.
    passWithNoTests: true,
    benchmark: { include: ['packages/*/bench/**/*.bench.{ts,tsx}'] },
  },
});
