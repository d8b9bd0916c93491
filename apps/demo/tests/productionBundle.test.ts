// @vitest-environment node
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';

const demoConfig = fileURLToPath(new URL('../vite.config.ts', import.meta.url));
const outDirs: string[] = [];

/** Builds the demo for production and returns every JavaScript file of the bundle, concatenated. */
async function buildDemo(env: Record<string, string | undefined>): Promise<{ code: string; files: string[] }> {
  const outDir = mkdtempSync(join(tmpdir(), 'chatwire-bundle-'));
  outDirs.push(outDir);
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    await build({ configFile: demoConfig, mode: 'production', logLevel: 'silent', build: { outDir, sourcemap: false, emptyOutDir: true } });
  } finally {
    for (const key of Object.keys(env)) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
  const assets = join(outDir, 'assets');
  const files = readdirSync(assets).filter((file) => file.endsWith('.js'));
  return { code: files.map((file) => readFileSync(join(assets, file), 'utf8')).join('\n'), files };
}

// Strings that exist only in the panel's code (its styles and its markup).
const PANEL_MARKERS = ['cw-root', 'Copy turn as test fixture', 'Net tool tokens (conversation)'];

afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

describe("the demo's production bundle", () => {
  it('contains no devtools panel code (the main entry renders nothing in production)', async () => {
    const { code, files } = await buildDemo({ VITE_CHATWIRE_DEVTOOLS: undefined });
    for (const marker of PANEL_MARKERS) expect(code, `found "${marker}" in ${files.join(', ')}`).not.toContain(marker);
    expect(files.some((file) => file.startsWith('mountPanel'))).toBe(false);
  }, 60_000);

  it('contains the panel, in its own lazily loaded chunk, when the /production entry is opted in', async () => {
    const { code, files } = await buildDemo({ VITE_CHATWIRE_DEVTOOLS: 'on' });
    for (const marker of PANEL_MARKERS) expect(code).toContain(marker);
    const panelChunk = files.find((file) => file.startsWith('mountPanel'));
    expect(panelChunk).toBeDefined();
  }, 60_000);
});
