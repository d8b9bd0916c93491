import { type AnyTool, type ServerTool, type ToolContext } from '@chatwire/core';
import { executeTool } from '@chatwire/core/shared';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The entry scripts of the real npm servers, run with this Node (no npx, no download). */
export const SERVERS = {
  filesystem: require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
  memory: require.resolve('@modelcontextprotocol/server-memory/dist/index.js'),
  everything: require.resolve('@modelcontextprotocol/server-everything/dist/index.js'),
};

/** The failure-case server (tests/fixtures/faultyServer.mjs). */
export const FAULTY = fileURLToPath(new URL('./fixtures/faultyServer.mjs', import.meta.url));

/** A stdio entry running `script` with this Node. */
export const stdio = (script: string, args: string[] = [], extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [script, ...args],
  ...extra,
});

/**
 * Runs a server tool as the agent loop does (`executeTool`: input validated, timeout and abort
 * enforced); a failed outcome rejects with its error text.
 */
export async function run(
  tool: AnyTool | undefined,
  input: unknown,
  context: Partial<ToolContext> & Record<string, unknown> = {},
): Promise<unknown> {
  if (!tool || tool.kind !== 'server') throw new Error(`no server tool ${tool?.name ?? '(missing)'}`);
  const outcome = await executeTool(tool as ServerTool, input, { toolCallId: 'call_1', signal: new AbortController().signal, ...context });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.output;
}

/** The named tool of a list. */
export const byName = (tools: readonly AnyTool[], name: string): AnyTool | undefined => tools.find((tool) => tool.name === name);

/** Waits until `check` holds (polling every 25 ms), or fails after `ms`. */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The processes running `script` whose parent is `parent` (this process by default), from the process table (Linux /proc). */
export function processesOf(script: string, parent = process.pid): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(script)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
