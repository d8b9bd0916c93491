#!/usr/bin/env node
/**
 * `npm run test:mcp-conformance`: the MCP conformance suite (@modelcontextprotocol/conformance) runs
 * its client scenarios against Chatwire's MCP client (packages/mcp/tests/conformance/conformanceClient.ts),
 * once per protocol revision: 2025-11-25 (the `initialize` handshake) and 2026-07-28 (stateless, per-request
 * `_meta`, `server/discover`). Each scenario starts the suite's own test server on loopback, runs the client
 * against it and checks what went over the wire (the suite's servers take a random port on every interface
 * for the seconds a scenario lasts: they read their port synchronously, so a loopback-only bind, which
 * resolves its host first, breaks them). The OAuth scenarios (auth/*) run the client as a server with
 * `oauth: true` (its sign-in tool, the browser's part done by a fetch that follows the authorization
 * server's redirect to the callback). Exits 1 when a scenario that applies fails. `node scripts/mcpConformance.mjs 2026-07-28 tools_call` runs one.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
/** The OAuth scenarios both revisions have: @chatwire/mcp signs each user in to servers with `oauth: true`. */
const AUTH = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];
/**
 * The client scenarios each revision requires (the suite's requirements/<revision>.yaml), OAuth
 * included. Not listed: json-schema-2020-12-preservation (unscored, added after the revisions'
 * release), which fails one check on purpose: the model is sent tool schemas without `$schema`
 * (docs/mcp.md); the 2025-03-26 OAuth back-compatibility scenarios (a revision this client does not
 * speak); and the OAuth extensions (client-credentials, enterprise-managed-authorization, dpop,
 * dpop-nonce, wif-jwt-bearer): machine-to-machine grants and sender-constrained tokens, where
 * Chatwire signs users in with the authorization code flow only.
 */
export const SCENARIOS = {
  '2025-11-25': ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry', ...AUTH],
  '2026-07-28': [
    'tools_call',
    'request-metadata',
    'sep-2322-client-request-state',
    'http-standard-headers',
    'http-custom-headers',
    'http-invalid-tool-headers',
    'json-schema-ref-no-deref',
    ...AUTH,
    'auth/resource-mismatch',
    'auth/offline-access-scope',
    'auth/offline-access-not-supported',
    'auth/authorization-server-migration',
    'auth/iss-supported',
    'auth/iss-not-advertised',
    'auth/iss-supported-missing',
    'auth/iss-wrong-issuer',
    'auth/iss-unexpected',
    'auth/iss-normalized',
    'auth/metadata-issuer-mismatch',
  ],
};
const cli = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const hooks = join(root, 'packages', 'mcp', 'tests', 'conformance', 'node20Hooks.mjs');

// Absolute paths: the suite runs the command from its results folder, outside the repository.
const tsx = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const client = `${process.execPath} --conditions=@chatwire/source --import ${tsx} ${join(root, 'packages', 'mcp', 'tests', 'conformance', 'conformanceClient.ts')}`;
const [onlyRevision, ...onlyScenarios] = process.argv.slice(2);
const runs = Object.entries(SCENARIOS)
  .filter(([revision]) => !onlyRevision || revision === onlyRevision)
  .flatMap(([revision, scenarios]) => (onlyScenarios.length ? onlyScenarios : scenarios).map((scenario) => ({ revision, scenario })));
// The suite writes results/ where it runs: a temporary folder, not the repository.
const cwd = mkdtempSync(join(tmpdir(), 'chatwire-mcp-conformance-'));
const failed = [];
try {
  for (const { revision, scenario } of runs) {
    const run = spawnSync(
      process.execPath,
      ['--import', hooks, cli, 'client', '--command', client, '--scenario', scenario, '--spec-version', revision, '--timeout', '30000'],
      {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, NODE_PATH: join(root, 'node_modules') },
      },
    );
    const output = `${run.stdout}${run.stderr}`;
    const ok = run.status === 0;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${revision} ${scenario}`);
    if (!ok) {
      failed.push(`${revision} ${scenario}`);
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
console.log(`MCP conformance: every client scenario that applies passed (${runs.length} runs).`);
