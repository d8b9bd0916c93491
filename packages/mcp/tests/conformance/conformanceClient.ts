// The MCP client under test in the conformance suite: Chatwire's own (connectMcpServers), driven the
// way a chat drives it. The suite passes the server URL as the last argument, the scenario in
// MCP_CONFORMANCE_SCENARIO and the protocol revision in MCP_CONFORMANCE_PROTOCOL_VERSION. Run through
// `npm run test:mcp-conformance` (scripts/mcpConformance.mjs), once per revision.
import { type ServerTool } from '@chatwire/core';
import { executeTool } from '@chatwire/core/shared';
import { createMemoryCredentialStore } from '@chatwire/server';
import { connectMcpServers, mcpServers, type RequestInput } from '../../src/index.js';

const url = process.argv.at(-1) ?? '';
const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
const revision = process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] ?? '';
if (scenario.startsWith('auth/')) {
  await runAuthScenario();
  process.exit(0);
}
// The default negotiation whatever the revision: `server/discover` first, `initialize` for a 2025 server.
const mcp = await connectMcpServers(
  { mcpServers: { conformance: { url, connectTimeoutMs: 10_000 } } },
  { allowedHosts: ['localhost', '127.0.0.1'] },
);
const status = mcp.status()[0];
if (status?.state !== 'connected') {
  console.error(`not connected: ${status?.lastError ?? 'unknown'}`);
  await mcp.close();
  process.exit(1);
}
console.log(`connected with protocol ${status.protocolVersion ?? 'unknown'} (asked for ${revision || 'any'})`);
const context = {
  toolCallId: 'conformance',
  signal: new AbortController().signal,
  // The user accepts the form as shown: the fields keep their defaults.
  requestInput: async () => ({ action: 'accept' as const, content: {} }),
};
const toolOf = (name: string) => mcp.tools().find((candidate) => candidate.name === `conformance__${name}`) as ServerTool | undefined;
const call = async (name: string, input: unknown) => {
  const tool = toolOf(name);
  if (!tool)
    throw new Error(
      `no tool ${name} (have ${mcp
        .tools()
        .map((candidate) => candidate.name)
        .join(', ')})`,
    );
  const outcome = await executeTool(tool, input, context);
  console.log(JSON.stringify(outcome.ok ? outcome.output : outcome.error).slice(0, 500));
};
/** What a chat would call in each scenario (the tools each scenario's server lists). */
const calls: Record<string, () => Promise<void>> = {
  tools_call: () => call('add_numbers', { a: 2, b: 3 }),
  'elicitation-sep1034-client-defaults': () => call('test_client_elicitation_defaults', {}),
  'sse-retry': () => call('test_reconnection', {}),
  'sep-2322-client-request-state': async () => {
    for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated', 'test_mrtr_no_result_type'])
      await call(name, {});
  },
  'http-custom-headers': async () => {
    await call('test_custom_headers', {
      region: 'us-west1',
      priority: 5,
      verbose: true,
      query: 'not mirrored',
      non_ascii_val: 'Zürich',
      crlf_val: 'line\r\nbreak',
      tab_val: '\tindented',
      leading_space_val: ' leading',
    });
    await call('test_custom_headers_null', { region: 'eu-central1', priority: 1, query: 'no verbose' });
  },
  // The tools with invalid x-mcp-header declarations were left out; the valid one stays callable.
  'http-invalid-tool-headers': () => call('valid_tool', { region: 'us-west1' }),
  'json-schema-2020-12-preservation': async () => {
    const focal = mcp.tools().find((tool) => tool.name === 'conformance__json_schema_2020_12_tool');
    await call('json_schema_echo', { schema: focal?.parameters });
  },
};
try {
  await calls[scenario]?.();
  console.log(
    `tools: ${mcp
      .tools()
      .map((tool) => tool.name)
      .join(', ')}`,
  );
} finally {
  await mcp.close();
}

/**
 * The OAuth scenarios: the server is `oauth: true`, so the user first gets its sign-in tool. Its
 * call asks the "browser" (this `requestInput`) to open the authorization URL; the suite's
 * authorization server redirects at once with a code, and the redirect is handed to the sign-in's
 * own finish (state, user, `iss`, PKCE), as the callback route does. Then the server's tool is
 * called with the user's tokens; a step-up or a refused token asks the browser again the same way.
 */
async function runAuthScenario(): Promise<void> {
  const user = 'conformance-user';
  const given = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as { client_id?: string; client_secret?: string };
  const preRegistered = given.client_id
    ? { clientId: given.client_id, ...(given.client_secret ? { clientSecret: given.client_secret } : {}) }
    : undefined;
  const request = new Request('http://chatwire.test/', { headers: { 'x-user': user } });
  const servers = mcpServers(
    { mcpServers: { conformance: { url, oauth: true, connectTimeoutMs: 10_000 } } },
    {
      allowedHosts: ['localhost', '127.0.0.1'],
      auth: {
        redirectUrl: 'http://localhost:3000/callback',
        userOf: () => user,
        store: createMemoryCredentialStore(),
        secret: 'conformance-secret',
        clientName: 'chatwire-conformance',
        // The suite's authorization servers that support client ID metadata documents accept this one.
        clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
        // auth/pre-registration hands the client it registered beforehand in the context.
        ...(preRegistered ? { clients: { conformance: preRegistered } } : {}),
      },
    },
  );
  const signIns = servers.signIns;
  if (!signIns) throw new Error('no sign-in configured');
  /** The browser's part: open the authorization URL, follow its redirect to the callback, finish there. */
  const browser: RequestInput = async (asked) => {
    if (!asked.url) return { action: 'decline' };
    const response = await fetch(asked.url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location) throw new Error(`the authorization server did not redirect (HTTP ${response.status})`);
    await signIns.auth.finish(new URL(location).searchParams, user);
    return { action: 'accept', content: {} };
  };
  const context = { toolCallId: 'conformance', signal: new AbortController().signal, requestInput: browser };
  try {
    const run = async (name: string) => {
      const tool = (await servers.loadTools(request)).find((candidate) => candidate.name === `conformance__${name}`) as
        ServerTool | undefined;
      if (!tool)
        throw new Error(`no tool ${name} (have ${(await servers.loadTools(request)).map((candidate) => candidate.name).join(', ')})`);
      const outcome = await executeTool(tool, {}, context);
      console.log(`${name}: ${JSON.stringify(outcome.ok ? outcome.output : outcome.error).slice(0, 300)}`);
      return outcome.ok;
    };
    // As a model would: sign in, and again while the server refuses the tokens (a step-up, a moved authorization server).
    let tools: string[] = ['conformance__sign_in'];
    for (let attempt = 0; attempt < 3 && tools.includes('conformance__sign_in'); attempt++) {
      await run('sign_in');
      tools = (await servers.loadTools(request)).map((tool) => tool.name);
    }
    console.log(`tools: ${tools.join(', ')}`);
    for (const name of tools.map((tool) => tool.replace(/^conformance__/, '')).filter((name) => name !== 'sign_in')) await run(name);
  } finally {
    await servers.close();
  }
}
