import type { Event, Interrupt, Message, ResumeEntry } from '@ag-ui/core';
import { createChatHandler, createMemoryCredentialStore, createMemoryStore, createScriptedModel } from '@chatwire/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEvents, interruptsOf, readEvents, user } from '../../../server/tests/fixtures.js';
import { createMcpAuthHandler, mcpServers, type McpServers } from '../../src/index.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauthFixture.js';

/**
 * Servers that sign users in, through the chat handler: a user who has not signed in gets the
 * server's sign-in tool, whose call ends the run with an input request carrying the authorization
 * URL; the callback stores the tokens for that user; the answer resumes the call; the server's own
 * tools then work with that user's tokens only. Tokens that expire are refreshed; tokens revoked
 * mid-run make the user sign in again.
 */
let fixture: OAuthFixture;
let mcp: McpServers;
const REDIRECT = 'http://127.0.0.1:9/api/mcp/callback';
beforeAll(async () => {
  fixture = await startOAuthFixture();
  mcp = mcpServers(
    { mcpServers: { notes: { url: fixture.mcpUrl, oauth: true, lazy: false } } },
    {
      auth: {
        redirectUrl: REDIRECT,
        userOf: (request) => request.headers.get('x-user') ?? undefined,
        store: createMemoryCredentialStore(),
        secret: 'oauth-chat-secret',
      },
    },
  );
});
afterAll(async () => {
  await mcp?.close();
  await fixture?.close();
});

const chat = createChatHandler({
  model: createScriptedModel(),
  tools: (request) => mcp.loadTools(request),
  userOf: (request) => request.headers.get('x-user') ?? undefined,
  secret: 'oauth-chat-secret',
  store: createMemoryStore(),
});
const authHandler = () => createMcpAuthHandler(mcp);

/** One run as `who`, in a thread of their own. */
async function send(who: string, messages: readonly Message[], resume?: ResumeEntry[]): Promise<Event[]> {
  const response = await chat(
    new Request('http://chatwire.test/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': who },
      body: JSON.stringify({
        threadId: `thread_${who}`,
        runId: `run_${Math.random()}`,
        messages,
        tools: [],
        context: [],
        ...(resume ? { resume } : {}),
      }),
    }),
  );
  expect(response.status).toBe(200);
  return readEvents(response);
}
const results = (events: readonly Event[]) =>
  events.filter((event) => event.type === 'TOOL_CALL_RESULT').map((event) => String((event as { content?: unknown }).content));
const signInRequest = (events: readonly Event[]): Interrupt & { url: string } => {
  const [interrupt] = interruptsOf(events);
  const meta = (interrupt?.metadata as { chatwire?: { inputRequest?: { url?: string; connect?: string } } } | undefined)?.chatwire
    ?.inputRequest;
  expect(interrupt).toMatchObject({ reason: 'input_request' });
  expect(meta?.connect).toBe('notes');
  return { ...(interrupt as Interrupt), url: meta?.url ?? '' };
};
/** The browser's part: consent at the authorization server as `login`, then the callback, as `who`. */
async function signIn(who: string, url: string, login: string): Promise<Response> {
  const callback = await fixture.consent(url, login);
  const path = `${callback.pathname}${callback.search}`;
  return authHandler()(new Request(`http://chatwire.test${path}`, { headers: { 'x-user': who } }));
}
const toolNames = async (who: string) =>
  (await mcp.loadTools(new Request('http://chatwire.test/', { headers: { 'x-user': who } }))).map((tool) => tool.name);

describe('MCP sign-in through the chat handler', () => {
  it('a user who has not signed in gets the sign-in tool; its call asks with the authorization URL; the callback and the answer resume it; then the tools work', async () => {
    expect(await toolNames('ann')).toEqual(['notes__sign_in']);
    const history = [user('use notes__sign_in', 'u1')];
    const first = await send('ann', history);
    const request = signInRequest(first);
    expect(new URL(request.url).origin).toBe(new URL(fixture.issuer).origin);
    expect(results(first)).toEqual([]);
    // No token anywhere in what the browser received.
    expect(JSON.stringify(first)).not.toMatch(/access_token|refresh_token/);

    const page = await signIn('ann', request.url, 'alice');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Signed in to notes');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/);
    expect(await toolNames('ann')).toEqual(['notes__whoami', 'notes__ask', 'notes__link']);

    const resumed = await send('ann', applyEvents(history, first), [
      { interruptId: request.id, status: 'resolved', payload: { action: 'accept', content: {} } },
    ]);
    expect(results(resumed).join()).toContain('Signed in to notes');

    const asked = [user('use notes__whoami', 'u2')];
    const whoami = await send('ann', asked);
    expect(results(whoami).join()).toContain('signed in as alice');
    expect(fixture.calls.filter((call) => call.tool === 'whoami').map((call) => call.login)).toEqual(['alice']);
  });

  it('a URL-mode elicitation reaches the user as a link to open (no form), and accept goes back to the server', async () => {
    const history = [user('use notes__link', 'u5')];
    const first = await send('ann', history);
    const [interrupt] = interruptsOf(first);
    const meta = (interrupt?.metadata as { chatwire?: { inputRequest?: { url?: string; connect?: string; schema?: unknown } } } | undefined)
      ?.chatwire?.inputRequest;
    expect(interrupt).toMatchObject({ reason: 'input_request', message: 'Open the page to link your account' });
    expect(meta).toMatchObject({ url: 'https://example.com/link-account', schema: { type: 'object', properties: {} } });
    expect(meta?.connect).toBeUndefined();
    const resumed = await send('ann', applyEvents(history, first), [
      { interruptId: interrupt!.id, status: 'resolved', payload: { action: 'accept', content: {} } },
    ]);
    expect(results(resumed).join()).toContain('link accept');
  });

  it("a second user has to sign in separately and never gets the first user's tools or tokens", async () => {
    expect(await toolNames('bob')).toEqual(['notes__sign_in']);
    const first = await send('bob', [user('use notes__sign_in', 'b1')]);
    const request = signInRequest(first);
    // Bob's callback completes only Bob's sign-in: Ann's request with Bob's state is refused.
    const callback = await fixture.consent(request.url, 'bob');
    const asAnn = await authHandler()(
      new Request(`http://chatwire.test${callback.pathname}${callback.search}`, { headers: { 'x-user': 'ann' } }),
    );
    expect(asAnn.status).toBe(400);
    expect(await toolNames('bob')).toEqual(['notes__sign_in']);
  });

  it('an expired access token is refreshed at its next use, without asking the user', async () => {
    const refreshes = fixture.grants.refresh_token;
    fixture.expireAll();
    const events = await send('ann', [user('use notes__whoami', 'u3')]);
    expect(interruptsOf(events)).toEqual([]);
    expect(results(events).join()).toContain('signed in as alice');
    expect(fixture.grants.refresh_token).toBe(refreshes + 1);
  });

  it('tokens revoked mid-run: the call asks the user to sign in again, and goes on once they did', async () => {
    // The tools are read (connected) before the revocation, as in a run that was under way.
    expect(await toolNames('ann')).toContain('notes__whoami');
    fixture.revokeAll();
    const history = [user('use notes__whoami', 'u4')];
    const first = await send('ann', history);
    const request = signInRequest(first);
    expect(results(first)).toEqual([]);
    expect((await signIn('ann', request.url, 'alice')).status).toBe(200);
    const resumed = await send('ann', applyEvents(history, first), [
      { interruptId: request.id, status: 'resolved', payload: { action: 'accept', content: {} } },
    ]);
    expect(results(resumed).join()).toContain('signed in as alice');
  });

  it('disconnecting revokes and deletes: the user is back to the sign-in tool', async () => {
    const revokedBefore = fixture.revoked.length;
    const response = await authHandler()(
      new Request('http://chatwire.test/api/mcp/servers', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-user': 'ann' },
        body: JSON.stringify({ disconnect: 'notes' }),
      }),
    );
    expect(await response.json()).toEqual({ disconnected: 'notes', revoked: true });
    expect(fixture.revoked.length).toBe(revokedBefore + 2);
    expect(await toolNames('ann')).toEqual(['notes__sign_in']);
  });
});
