import type { Event } from '@ag-ui/core';
import { createChatHandler, createScriptedModel, type ChatHandlerOptions, type ChatModel, type ModelRequest } from '@chatwire/server';
import { readEvents, runInput, user } from '../fixtures.js';

/**
 * One error text per kind of credential `redactSecrets` removes, as tools and MCP servers write them,
 * with the parts that must never reach the model or the browser. The MCP tests (packages/mcp) send the
 * same texts from a real MCP server.
 */
export const SECRET_SAMPLES: readonly { readonly pattern: string; readonly text: string; readonly secrets: readonly string[] }[] = [
  { pattern: 'token=', text: 'upstream refused token=sk-live-abcdef for this account', secrets: ['sk-live-abcdef'] },
  { pattern: 'secret=', text: 'oauth exchange failed: client_id=app-1 secret=Sq9x-7vLm2', secrets: ['Sq9x-7vLm2'] },
  { pattern: 'password=', text: 'login as admin with password=correct-horse-battery failed', secrets: ['correct-horse-battery'] },
  {
    pattern: 'NAME_TOKEN= (environment style)',
    text: 'spawn failed with GITHUB_TOKEN=tok_8f3k2j1 and AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCY',
    secrets: ['tok_8f3k2j1', 'wJalrXUtnFEMIK7MDENGbPxRfiCY'],
  },
  {
    pattern: '"api_key": "…" (a quoted key)',
    text: 'request body was {"api_key": "k-55aa-77bb", "region": "eu"}',
    secrets: ['k-55aa-77bb'],
  },
  {
    pattern: 'Authorization: Bearer …',
    text: 'sent headers Authorization: Bearer opaque-bearer-4711 and got 401',
    secrets: ['opaque-bearer-4711'],
  },
  {
    pattern: 'Authorization: Basic …',
    text: 'proxy said authorization: Basic YWRtaW46aHVudGVyMg== is invalid',
    secrets: ['YWRtaW46aHVudGVyMg'],
  },
  { pattern: 'Bearer … (anywhere)', text: 'retrying with bearer zXc9-Vbn8-Mlk7 later', secrets: ['zXc9-Vbn8-Mlk7'] },
  { pattern: 'Cookie: …', text: 'Cookie: session=s%3Aabc123def; theme=dark', secrets: ['s%3Aabc123def'] },
  {
    pattern: 'URL user and password',
    text: 'connect ECONNREFUSED postgres://dbadmin7:pw-9931@10.0.0.5:5432/orders',
    secrets: ['dbadmin7', 'pw-9931'],
  },
  { pattern: '?api_key= (a query value)', text: 'GET https://api.example.com/v1?api_key=q-31337&x=1 failed', secrets: ['q-31337'] },
  {
    pattern: 'sk- (OpenAI, Anthropic)',
    text: 'the key sk-proj-Ab12Cd34Ef56 was revoked',
    secrets: ['sk-proj-Ab12Cd34Ef56', 'Ab12Cd34Ef56'],
  },
  { pattern: 'sk_live_ (Stripe)', text: 'stripe rejected sk_live_51HxYzAbCdEf', secrets: ['sk_live_51HxYzAbCdEf', '51HxYzAbCdEf'] },
  {
    pattern: 'ghp_ / github_pat_ (GitHub)',
    text: 'git clone with ghp_R4nd0mT0k3nV4lu3 then github_pat_11AAA_bbbCCCddd',
    secrets: ['R4nd0mT0k3nV4lu3', '11AAA_bbbCCCddd'],
  },
  { pattern: 'glpat- (GitLab)', text: 'gitlab: glpat-xY7zW8vU9tS6 expired', secrets: ['xY7zW8vU9tS6'] },
  {
    pattern: 'xoxb- / xoxp- (Slack)',
    text: 'slack auth: xoxb-1234-5678-AbCdEfGh and xoxp-9876-5432-ZyXw',
    secrets: ['AbCdEfGh', 'xoxp-9876-5432-ZyXw'],
  },
  {
    pattern: 'AKIA… (AWS access key id)',
    text: 'signature mismatch for AKIAIOSFODNN7EXAMPLE',
    secrets: ['AKIAIOSFODNN7EXAMPLE', 'IOSFODNN7EXAMPLE'],
  },
  {
    pattern: 'AIza… (Google API key)',
    text: 'maps: AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY denied',
    secrets: ['SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY'],
  },
  { pattern: 'npm_ (npm)', text: 'npm publish: npm_aBcDeFgHiJkLmNoP rejected', secrets: ['aBcDeFgHiJkLmNoP'] },
  { pattern: 'hf_ (Hugging Face)', text: 'hub refused hf_QwErTyUiOpAsDfGh', secrets: ['QwErTyUiOpAsDfGh'] },
  {
    pattern: 'a JSON Web Token',
    text: 'invalid jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U here',
    secrets: ['eyJzdWIiOiIxMjM0NTY3ODkwIn0', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  },
  {
    pattern: 'a PEM private key',
    text: 'bad key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END RSA PRIVATE KEY-----\n(loaded from env)',
    secrets: ['MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo'],
  },
];

/** A scripted model that records each request (what the model reads). */
export function recordingModel(rules: Parameters<typeof createScriptedModel>[0] = {}): { model: ChatModel; requests: ModelRequest[] } {
  const scripted = createScriptedModel(rules);
  const requests: ModelRequest[] = [];
  return { requests, model: { ...scripted, stream: (request) => (requests.push(request), scripted.stream(request)) } };
}

/**
 * Runs one chat through the HTTP handler and returns what the browser receives (the SSE body as
 * sent), its events, and what the model read on its last call (the tool's error among the messages).
 */
export async function chatOverHttp(
  options: ChatHandlerOptions,
  requests: readonly ModelRequest[],
  message: string,
): Promise<{ sse: string; events: Event[]; modelView: string }> {
  const handler = createChatHandler(options);
  const response = await handler(
    new Request('http://chatwire.test/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(runInput([user(message)])),
    }),
  );
  const sse = await response.text();
  const events = await readEvents(new Response(sse));
  return { sse, events, modelView: JSON.stringify(requests.at(-1)?.messages ?? []) };
}
