import { spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVERS, until } from './mcpFixtures.js';

// A user's Vite app whose vite.config.ts imports its server file, which configures server-memory
// (a real MCP server from npm) over stdio. Vite runs in a child process, as `vite` and `vite build`
// do, on this checkout's sources (tsx, the source condition, Vite's native config loader, which
// restarts the server when a file the config imports changes, as the default loader does).
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const VITE = join(REPO, 'node_modules/vite/bin/vite.js');
const NODE_ARGS = ['--conditions=@chatwire/source', '--import', 'tsx'];

/** The two ways a server file opens its MCP servers. */
const SERVER_FILES = {
  // The documented way: connected on first use.
  lazy: (memoryFile: string) => `import { mcpServers } from '@chatwire/mcp';
import { createChatHandler, createScriptedModel, createToolsHandler } from '@chatwire/server';

export const mcp = mcpServers({
  mcpServers: { memory: { command: process.execPath, args: [${JSON.stringify(SERVERS.memory)}], env: { MEMORY_FILE_PATH: ${JSON.stringify(memoryFile)} } } },
});
const tools = async () => [...(await mcp.loadTools())];
export const routes = {
  '/api/chat': createChatHandler({ model: createScriptedModel({ delayMs: 0 }), tools }),
  '/api/tools': createToolsHandler(tools),
};
`,
  // What the user wrote: connected at import time, with top-level await.
  eager: (memoryFile: string) => `import { connectMcpServers } from '@chatwire/mcp';
import { createChatHandler, createScriptedModel, createToolsHandler } from '@chatwire/server';

export const mcp = await connectMcpServers({
  mcpServers: { memory: { command: process.execPath, args: [${JSON.stringify(SERVERS.memory)}], env: { MEMORY_FILE_PATH: ${JSON.stringify(memoryFile)} } } },
});
console.log('[app] MCP at import: ' + mcp.status().map((server) => server.state).join(','));
const tools = () => mcp.tools();
export const routes = {
  '/api/chat': createChatHandler({ model: createScriptedModel({ delayMs: 0 }), tools }),
  '/api/tools': createToolsHandler(tools),
};
`,
};

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) {
    for (const pid of mcpChildren(folder)) process.kill(pid, 'SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
});

/** Writes the app; its node_modules is this checkout's (the workspace packages link to their sources). */
function makeApp(pattern: keyof typeof SERVER_FILES): { folder: string; serverFile: string } {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), `chatwire-vite-mcp-${pattern}-`)));
  folders.push(folder);
  symlinkSync(join(REPO, 'node_modules'), join(folder, 'node_modules'), 'dir');
  mkdirSync(join(folder, 'src'));
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'vite-mcp-app', private: true, type: 'module' }));
  writeFileSync(join(folder, 'index.html'), '<!doctype html><html><body><script type="module" src="/src/main.ts"></script></body></html>');
  writeFileSync(join(folder, 'src/main.ts'), "document.body.textContent = 'the app';\n");
  const serverFile = join(folder, 'src/server.ts');
  writeFileSync(serverFile, SERVER_FILES[pattern](join(folder, 'memory.jsonl')));
  writeFileSync(
    join(folder, 'vite.config.ts'),
    `import { chatwireVitePlugin } from '@chatwire/server';
import { defineConfig } from 'vite';
import { routes } from './src/server.ts';

export default defineConfig({ plugins: [chatwireVitePlugin(routes)] });
`,
  );
  return { folder, serverFile };
}

/** server-memory processes started in `folder` (their working directory), from the process table (/proc). */
function mcpChildren(folder: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv.includes(SERVERS.memory) && readlinkSync(`/proc/${entry}/cwd`) === folder) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** A Vite process of the app, with its output so far and its exit. */
function runVite(folder: string, args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...NODE_ARGS, VITE, ...args, '--clearScreen', 'false'], {
    cwd: folder,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the exit code, or fails when the process has not exited within `ms` (then it is killed). */
async function exitWithin(vite: ReturnType<typeof runVite>, ms: number): Promise<number | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = await Promise.race([vite.exited, late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    vite.child.kill('SIGKILL');
    throw new Error(`the process did not exit within ${ms / 1000} s; its output:\n${vite.output()}`);
  }
  return outcome;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/** The catalog's MCP tools, read through the dev server (the first read connects a lazy server). */
async function mcpToolNames(port: number): Promise<string[]> {
  const response = await fetch(`http://127.0.0.1:${port}/api/tools`);
  expect(response.status).toBe(200);
  const catalog = (await response.json()) as { tools: { name: string }[] };
  return catalog.tools.map((tool) => tool.name).filter((name) => name.startsWith('memory__'));
}

/**
 * Waits until the app has `count` MCP children: a child being stopped (stdin closed, then SIGTERM
 * after 2 s) may still be in the table for a moment on a busy machine. A leak never settles.
 */
async function settlesAt(folder: string, count: number, when: string): Promise<void> {
  await until(() => mcpChildren(folder).length === count, 15_000).catch(() => {
    throw new Error(`${when}: ${mcpChildren(folder).length} MCP children (pids ${mcpChildren(folder).join(', ')}), expected ${count}`);
  });
}

const occurrences = (text: string, line: string) => text.split(line).length - 1;

describe('MCP servers in a server file that vite.config.ts imports', () => {
  for (const pattern of ['lazy', 'eager'] as const) {
    it(`vite build exits by itself within 60 s and leaves no MCP child (${pattern})`, async () => {
      const { folder } = makeApp(pattern);
      const build = runVite(folder, ['build', '--configLoader', 'native']);
      const code = await exitWithin(build, 60_000);
      expect(code, build.output()).toBe(0);
      expect(existsSync(join(folder, 'dist/index.html'))).toBe(true);
      if (pattern === 'eager') expect(build.output()).toContain('[app] MCP at import: connected');
      await settlesAt(folder, 0, 'after the build');
    }, 90_000);
  }

  for (const pattern of ['lazy', 'eager'] as const) {
    it(`five saves of the server file in dev leave one MCP child, and none once the dev server stops (${pattern})`, async () => {
      const { folder, serverFile } = makeApp(pattern);
      const port = await freePort();
      const dev = runVite(folder, ['--configLoader', 'native', '--host', '127.0.0.1', '--port', String(port), '--strictPort']);
      try {
        await until(() => dev.output().includes('ready in'), 60_000).catch(() => {
          throw new Error(`the dev server did not start:\n${dev.output()}`);
        });
        expect(await mcpToolNames(port)).toContain('memory__read_graph');
        await settlesAt(folder, 1, 'after the first request');
        for (let save = 1; save <= 5; save++) {
          appendFileSync(serverFile, `// save ${save}\n`);
          await until(() => occurrences(dev.output(), 'server restarted') === save, 60_000).catch(() => {
            throw new Error(`no restart after save ${save}:\n${dev.output()}`);
          });
          expect(await mcpToolNames(port)).toContain('memory__read_graph');
          await settlesAt(folder, 1, `after save ${save}`);
        }
        dev.child.kill('SIGTERM');
        await exitWithin(dev, 30_000);
        await settlesAt(folder, 0, 'after the dev server stopped');
      } finally {
        if (dev.child.exitCode === null && dev.child.signalCode === null) dev.child.kill('SIGKILL');
      }
    }, 240_000);
  }
});
