#!/usr/bin/env node
/**
 * `npm run test:mcp-conformance`: the MCP conformance suite (@modelcontextprotocol/conformance) runs
 * its client scenarios against Chatwire's MCP client (packages/mcp/tests/conformance/conformanceClient.ts).
 * Each scenario starts the suite's own test server on loopback, runs the client against it and
 * checks what went over the wire (the suite's servers take a random port on every interface for the
 * seconds a scenario lasts: they read their port synchronously, so a loopback-only bind, which
 * resolves its host first, breaks them). The OAuth scenarios (auth/*) do not apply: @chatwire/mcp sends
 * the headers its configuration names and runs no OAuth flow (docs/mcp.md). Exits 1 when a
 * scenario that applies fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
/** The client scenarios that apply to a client without OAuth. */
export const SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];
const cli = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const hooks = join(root, 'packages', 'mcp', 'tests', 'conformance', 'node20Hooks.mjs');

// Absolute paths: the suite runs the command from its results folder, outside the repository.
const tsx = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const client = `${process.execPath} --conditions=@chatwire/source --import ${tsx} ${join(root, 'packages', 'mcp', 'tests', 'conformance', 'conformanceClient.ts')}`;
// The suite writes results/ where it runs: a temporary folder, not the repository.
const cwd = mkdtempSync(join(tmpdir(), 'chatwire-mcp-conformance-'));
const failed = [];
try {
  for (const scenario of process.argv.slice(2).length ? process.argv.slice(2) : SCENARIOS) {
    const run = spawnSync(
      process.execPath,
      ['--import', hooks, cli, 'client', '--command', client, '--scenario', scenario, '--timeout', '30000'],
      {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, NODE_PATH: join(root, 'node_modules') },
      },
    );
    const output = `${run.stdout}${run.stderr}`;
    const ok = run.status === 0;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${scenario}`);
    if (!ok) {
      failed.push(scenario);
      console.log(output.split('\n').slice(-40).join('\n'));
    } else {
      const summary = output
        .split('\n')
        .filter((line) => /passed|failed|warning/i.test(line))
        .slice(-3);
      for (const line of summary) console.log(`     ${line.trim()}`);
    }
  }
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
if (failed.length) {
  console.error(`MCP conformance: ${failed.length} scenario(s) failed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('MCP conformance: every client scenario that applies passed.');
