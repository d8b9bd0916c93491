import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  McpConfigError,
  connectMcpServers,
  isOAuthConfig,
  isStdioConfig,
  parseMcpConfig,
  type McpServerConfig,
  type McpServers,
} from '@chatwire/mcp';
import { createMemoryCredentialStore, type CredentialStore } from '@chatwire/server';
import { demoUserOf } from './routes.ts';
import { pathSetting, startedFrom, type Environment } from './pathSetting.ts';

const require = createRequire(import.meta.url);

/** The npm servers the demo starts, run with this Node from node_modules (installed by `npm ci`, never downloaded at run time). */
const entry = (name: string) => require.resolve(`@modelcontextprotocol/${name}/dist/index.js`);
/** The MCP Apps examples export only their server module: their command line (`dist/index.js`) sits beside it. */
const appEntry = (name: string) => join(dirname(require.resolve(`@modelcontextprotocol/${name}`)), 'index.js');

/** Creates the folder the filesystem server may read and write, with two files to find. */
function demoFolder(): string {
  const folder = join(tmpdir(), 'chatwire-demo-mcp');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'welcome.txt'),
    'This folder belongs to the Chatwire demo. The filesystem MCP server can read and write here, nowhere else.\n',
  );
  writeFileSync(join(folder, 'shopping-list.md'), '# Shopping list\n\n- red shoes\n- a rain jacket\n');
  return folder;
}

/**
 * The demo's own servers: filesystem (on a folder it creates), memory (its file in that folder) and
 * everything, all lazy; and two MCP App servers from the MCP Apps SDK's examples: basic (a get-time
 * tool whose React app has Get Server Time, Send Message, Send Log and Open Link), whose calls ask
 * for approval like any untrusted server's, and budget (a budget allocator with charts), trusted.
 */
export function demoMcpServers(): Record<string, McpServerConfig> {
  const folder = demoFolder();
  return {
    files: { command: process.execPath, args: [entry('server-filesystem'), folder], lazy: true },
    memory: {
      command: process.execPath,
      args: [entry('server-memory')],
      env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') },
      lazy: true,
    },
    everything: { command: process.execPath, args: [entry('server-everything'), 'stdio'], lazy: true },
    basic: { command: process.execPath, args: [appEntry('server-basic-react'), '--stdio'] },
    budget: { command: process.execPath, args: [appEntry('server-budget-allocator'), '--stdio'], trusted: true },
  };
}

/**
 * The user's servers from `CHATWIRE_MCP_CONFIG` (a file in the `mcpServers` shape), or none. The
 * path, and each stdio server's `cwd`, are resolved against the folder the command was started from
 * (`INIT_CWD`: `npm start` runs in apps/demo), where a stdio server without `cwd` starts too, so
 * its relative arguments mean what they meant where the user typed the command. A missing or
 * malformed file throws an {@link McpConfigError} naming the file and the problem.
 */
export function userMcpServers(env: Environment): Record<string, McpServerConfig> {
  const path = pathSetting(env, 'CHATWIRE_MCP_CONFIG');
  if (!path) return {};
  const given = env['CHATWIRE_MCP_CONFIG']?.trim();
  const named = given === path ? path : `${given} (${path})`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new McpConfigError(`CHATWIRE_MCP_CONFIG=${named} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const from = startedFrom(env);
  const servers = parseMcpConfig(text, `CHATWIRE_MCP_CONFIG (${path})`).mcpServers;
  return Object.fromEntries(
    Object.entries(servers).map(([name, config]) => [
      name,
      isStdioConfig(config) ? { ...config, cwd: resolve(from, config.cwd ?? '.') } : config,
    ]),
  );
}

/** What {@link startDemoMcp} needs for servers that sign users in (`oauth` in `CHATWIRE_MCP_CONFIG`). */
export interface DemoMcpOptions {
  /** Where users' tokens live: the thread store's credentials. Defaults to memory. */
  readonly credentials?: CredentialStore;
  /** The port the demo listens on, for the sign-in callback's URL (`CHATWIRE_PUBLIC_URL` overrides the whole origin). */
  readonly port: number;
}

/**
 * Connects the demo's servers and the user's (`CHATWIRE_MCP_CONFIG`), printing what each start
 * cost in time. `reservedNames` are the demo's own tools, which MCP tools never shadow.
 * `CHATWIRE_MCP=config` connects only `CHATWIRE_MCP_CONFIG`'s. Servers there with `oauth` sign each
 * demo user in: the callback is `/api/mcp/callback` on the demo's origin (`CHATWIRE_PUBLIC_URL`, else
 * `http://<HOST>:<port>`), and tokens live in `options.credentials`.
 */
export async function startDemoMcp(
  env: Readonly<Record<string, string | undefined>>,
  reservedNames: readonly string[],
  options: DemoMcpOptions = { port: 5173 },
): Promise<McpServers> {
  const user = userMcpServers(env);
  const own = env['CHATWIRE_MCP'] === 'config' ? {} : demoMcpServers();
  const origin = env['CHATWIRE_PUBLIC_URL']?.trim() || `http://${env['HOST']?.trim() || '127.0.0.1'}:${options.port}`;
  const started = performance.now();
  const connectedAt = new Map<string, number>();
  const servers = await connectMcpServers(
    { mcpServers: { ...own, ...user } },
    {
      reservedNames,
      ...(Object.values(user).some(isOAuthConfig)
        ? {
            auth: {
              redirectUrl: new URL('/api/mcp/callback', origin).href,
              userOf: demoUserOf,
              store: options.credentials ?? createMemoryCredentialStore(),
            },
          }
        : {}),
      // The user's HTTP servers are allowed at the hosts their own file names (it is server-side configuration).
      allowedHosts: [
        'localhost',
        '127.0.0.1',
        '[::1]',
        ...Object.values(user).flatMap((config) => ('url' in config ? [new URL(config.url).hostname] : [])),
      ],
      onEvent: (event) => {
        if (event.type === 'state' && event.state === 'connected' && !connectedAt.has(event.server))
          connectedAt.set(event.server, performance.now() - started);
        if (event.type === 'state' && event.state !== 'connected' && event.error)
          console.warn(`[demo] MCP server '${event.server}': ${event.state} (${event.error})`);
      },
    },
  );
  for (const status of servers.status()) {
    const took = connectedAt.get(status.name);
    console.log(
      `[demo] MCP ${status.name} (${status.transport}): ${status.state}${took === undefined ? '' : ` in ${Math.round(took)} ms`}, ${status.toolCount} tools, ${status.lazy.tokens} tokens, ${status.lazy.lazy ? 'lazy' : 'eager'} (${status.lazy.reason})`,
    );
  }
  return servers;
}
