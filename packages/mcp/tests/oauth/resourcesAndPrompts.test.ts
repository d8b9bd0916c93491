import { createMemoryCredentialStore } from '@chatwire/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpAuthHandler, mcpServers, type McpServers } from '../../src/index.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauthFixture.js';

/**
 * Resources and prompts through the MCP handler's routes, per user: a signed-in user's reads go
 * through their own connection (the server answers with their login), an oversized resource is
 * refused with 413 (a declared size before it is read, a received one after), a prompt that
 * declares 1,000 arguments is not offered and says why, and every bad request says what is wrong.
 */
let fixture: OAuthFixture;
let mcp: McpServers;
let handler: (request: Request) => Promise<Response>;
beforeAll(async () => {
  fixture = await startOAuthFixture();
  mcp = mcpServers(
    { mcpServers: { notes: { url: fixture.mcpUrl, oauth: true, lazy: false } } },
    {
      auth: {
        redirectUrl: 'http://127.0.0.1:9/api/mcp/callback',
        userOf: (request) => request.headers.get('x-user') ?? undefined,
        store: createMemoryCredentialStore(),
        secret: 'resources-secret',
      },
    },
  );
  handler = createMcpAuthHandler(mcp);
  for (const [who, login] of [
    ['ann', 'alice'],
    ['bo', 'bob'],
  ] as const) {
    const url = await mcp.signIns!.auth.begin('notes', who);
    const callback = await fixture.consent(url!, login);
    const page = await handler(new Request(`http://chatwire.test${callback.pathname}${callback.search}`, { headers: { 'x-user': who } }));
    expect(page.status).toBe(200);
  }
});
afterAll(async () => {
  await mcp?.close();
  await fixture?.close();
});

const get = (who: string, path: string) => handler(new Request(`http://chatwire.test/api/mcp${path}`, { headers: { 'x-user': who } }));
const post = (who: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  handler(
    new Request(`http://chatwire.test/api/mcp${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': who, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
const read = (who: string, uri: string) => get(who, `/resources/read?server=notes&uri=${encodeURIComponent(uri)}`);

describe('resources', () => {
  it("lists a signed-in user's resources; a user who has not signed in gets the server with the reason", async () => {
    const listed = (await (await get('ann', '/resources')).json()) as { servers: { server: string; resources: { uri: string }[] }[] };
    expect(listed.servers).toHaveLength(1);
    expect(listed.servers[0]!.resources.map((resource) => resource.uri)).toEqual([
      'notes://welcome',
      'notes://big',
      'notes://declared',
      'notes://logo.png',
    ]);
    const stranger = (await (await get('cy', '/resources')).json()) as {
      servers: { server: string; resources: unknown[]; error?: string }[];
    };
    expect(stranger.servers).toEqual([{ server: 'notes', resources: [], error: 'not connected' }]);
  });

  it("reads a resource through the user's own connection: text as text, binary as base64", async () => {
    const ann = await read('ann', 'notes://welcome');
    expect(ann.status).toBe(200);
    expect(await ann.json()).toMatchObject({
      uri: 'notes://welcome',
      name: 'welcome',
      mimeType: 'text/plain',
      text: 'Welcome, alice. This note is yours.',
    });
    expect(await (await read('bo', 'notes://welcome')).json()).toMatchObject({ text: 'Welcome, bob. This note is yours.' });
    expect(await (await read('ann', 'notes://logo.png')).json()).toMatchObject({ mimeType: 'image/png', blob: 'iVBORw0KGgo=', bytes: 8 });
    // Not signed in: no connection, nothing read.
    expect((await read('cy', 'notes://welcome')).status).toBe(404);
  });

  it('an oversized resource is refused with 413: a 3 MiB text after it arrives, a declared 5 MiB one before it is read', async () => {
    const big = await read('ann', 'notes://big');
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'too-large', error: 'The resource is 3,145,728 bytes; at most 1,048,576 are read.' });
    const before = fixture.calls.filter((call) => call.tool === 'read:declared').length;
    const declared = await read('ann', 'notes://declared');
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: 'The resource is 5,242,880 bytes; at most 1,048,576 are read.' });
    expect(fixture.calls.filter((call) => call.tool === 'read:declared').length).toBe(before);
  });

  it('bad reads say what is wrong', async () => {
    expect(await (await get('ann', '/resources/read?server=notes')).json()).toMatchObject({ code: 'invalid' });
    const unknown = await get('ann', '/resources/read?server=nope&uri=x%3A%2F%2Fy');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "There is no MCP server 'nope'." });
    const long = await read('ann', `notes://${'a'.repeat(3_000)}`);
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: 'The resource URI is empty or over 2,048 characters.' });
    const missing = await read('ann', 'notes://missing');
    expect(missing.status).toBe(502);
    expect((await post('ann', '/resources', {})).status).toBe(405);
  });

  it('a cross-site page cannot read them', async () => {
    const response = await handler(
      new Request('http://chatwire.test/api/mcp/resources', {
        headers: { 'x-user': 'ann', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      }),
    );
    expect(response.status).toBe(403);
  });
});

describe('prompts', () => {
  it('lists the prompts; the one declaring 1,000 arguments is not offered and the list says why', async () => {
    const listed = (await (await get('ann', '/prompts')).json()) as { servers: { prompts: unknown[]; skipped?: unknown[] }[] };
    expect(listed.servers[0]!.prompts).toEqual([
      {
        name: 'summarize',
        description: 'Summarize the notes about a topic.',
        arguments: [{ name: 'topic', description: 'What to summarize', required: true }],
      },
    ]);
    expect(listed.servers[0]!.skipped).toEqual([{ name: 'huge', reason: 'it declares 1,000 arguments; at most 50 are shown as a form' }]);
    const huge = await post('ann', '/prompts/get', { server: 'notes', name: 'huge', arguments: {} });
    expect(huge.status).toBe(422);
    expect(await huge.json()).toMatchObject({
      error: "The prompt 'huge' is not offered: it declares 1,000 arguments; at most 50 are shown as a form.",
    });
  });

  it("gets a prompt with the user's argument", async () => {
    const got = await post('ann', '/prompts/get', { server: 'notes', name: 'summarize', arguments: { topic: 'apples' } });
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ messages: [{ role: 'user', text: 'Summarize my notes about apples.' }] });
  });

  it('bad prompt requests say what is wrong: a missing, unknown or non-text argument, 1,000 arguments sent, no such prompt, not JSON', async () => {
    const cases: [unknown, number, unknown][] = [
      [{ server: 'notes', name: 'summarize', arguments: {} }, 400, "The prompt 'summarize' needs 'topic'."],
      [
        { server: 'notes', name: 'summarize', arguments: { topic: 'a', colour: 'red' } },
        400,
        "The prompt 'summarize' has no argument 'colour'.",
      ],
      [{ server: 'notes', name: 'summarize', arguments: { topic: 42 } }, 400, "'topic' must be text of at most 10,000 characters."],
      [
        { server: 'notes', name: 'summarize', arguments: Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`a${i}`, 'x'])) },
        400,
        '1,000 arguments were given; a prompt takes at most 50.',
      ],
      [{ server: 'notes', name: 'nothing', arguments: {} }, 404, "There is no prompt 'nothing'."],
      [
        { server: 'notes', name: 'summarize', arguments: ['apples'] },
        400,
        '`arguments` must be an object of the prompt’s argument names to text.',
      ],
      ['{not json', 400, expect.stringMatching(/^The request body is not valid JSON/)],
    ];
    for (const [body, status, error] of cases) {
      const response = await post('ann', '/prompts/get', body);
      expect({ status: response.status, error: ((await response.json()) as { error: string }).error }).toEqual({ status, error });
    }
    expect((await post('ann', '/prompts/get', 'x'.repeat(700 * 1024))).status).toBe(413);
  });

  it('completes an argument where the server offers completion; an unknown argument is refused', async () => {
    const done = await post('ann', '/prompts/complete', { server: 'notes', name: 'summarize', argument: { name: 'topic', value: 'ap' } });
    expect(await done.json()).toEqual({ values: ['apples', 'apricots'] });
    const unknown = await post('ann', '/prompts/complete', {
      server: 'notes',
      name: 'summarize',
      argument: { name: 'colour', value: 'r' },
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: "The prompt 'summarize' has no argument 'colour'." });
    const shapeless = await post('ann', '/prompts/complete', { server: 'notes', name: 'summarize', argument: 'topic' });
    expect(await shapeless.json()).toMatchObject({ error: 'Give `argument` as `{ name, value }`, both strings.' });
  });
});

describe('catalog status', () => {
  it("a signed-in user's server lists its resources and prompts; a user who has not signed in sees none", async () => {
    const request = new Request('http://chatwire.test/', { headers: { 'x-user': 'ann' } });
    await mcp.loadTools(request);
    // The listing is read once the user's connection connects, beside it: polled until it is in.
    let status = (await mcp.catalogStatusFor(request))[0];
    for (let tries = 0; tries < 400 && status?.prompts === undefined; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await mcp.catalogStatusFor(request))[0];
    }
    expect(status).toMatchObject({ signIn: 'connected', protocolVersion: expect.any(String) });
    expect(status?.resources?.map((resource) => resource.uri)).toEqual([
      'notes://welcome',
      'notes://big',
      'notes://declared',
      'notes://logo.png',
    ]);
    expect(status?.prompts).toEqual([{ name: 'summarize', arguments: ['topic'] }]);
    const stranger = (await mcp.catalogStatusFor(new Request('http://chatwire.test/', { headers: { 'x-user': 'cy' } })))[0];
    expect(stranger).toMatchObject({ signIn: 'needs-sign-in' });
    expect(stranger?.resources).toBeUndefined();
  });
});

describe('requests whose userOf names nobody', () => {
  const anonymous = (path: string, init: RequestInit = {}) => handler(new Request(`http://chatwire.test/api/mcp${path}`, init));

  it('cannot start, finish or undo a sign-in: one shared slot would give one visitor’s tokens to every other', async () => {
    await expect(mcp.signIns!.auth.begin('notes', '')).rejects.toMatchObject({ code: 'no-user' });
    await expect(mcp.signIns!.disconnect('notes', '')).rejects.toMatchObject({ code: 'no-user' });
    const servers = await anonymous('/servers');
    expect(servers.status).toBe(401);
    expect(await servers.json()).toMatchObject({ code: 'no-user' });
    const connect = await anonymous('/servers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ connect: 'notes' }),
    });
    expect(connect.status).toBe(401);
    // A callback with a state someone else started is refused before the state is looked at.
    const url = await mcp.signIns!.auth.begin('notes', 'cy');
    const callback = await fixture.consent(url!, 'carol');
    const page = await anonymous(`${callback.pathname.slice('/api/mcp'.length)}${callback.search}`);
    expect(page.status).toBe(401);
  });

  it('gets none of the signed-in servers: no tools, no sign-in tool, no resources', async () => {
    const tools = await mcp.loadTools(new Request('http://chatwire.test/api/chat'));
    expect(tools.filter((tool) => tool.name.startsWith('notes'))).toEqual([]);
    const listed = (await (await anonymous('/resources')).json()) as { servers: { resources?: unknown[] }[] };
    expect(listed.servers.flatMap((server) => server.resources ?? [])).toEqual([]);
    expect((await anonymous('/resources/read?server=notes&uri=notes%3A%2F%2Fhello')).status).not.toBe(200);
  });
});

describe('request bodies', () => {
  /** A body that never ends, counting the chunks the handler pulled from it. */
  const endless = () => {
    const counted = { pulls: 0 };
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        counted.pulls++;
        controller.enqueue(chunk);
      },
    });
    return { body, counted };
  };

  it('a streamed body past the limit is cancelled as it grows, never read whole (413)', async () => {
    for (const path of ['/prompts/get', '/servers']) {
      const { body, counted } = endless();
      const response = await handler(
        new Request(`http://chatwire.test/api/mcp${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-user': 'ann' },
          body,
          duplex: 'half',
        } as RequestInit),
      );
      expect(response.status).toBe(413);
      // The prompt routes take 600 KiB, /servers 4 KiB: a few 64 KiB chunks past that at most.
      expect(counted.pulls).toBeLessThan(16);
    }
  });

  it('a declared Content-Length over the limit is refused before the body is read', async () => {
    const { body, counted } = endless();
    const response = await handler(
      new Request('http://chatwire.test/api/mcp/prompts/get', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-user': 'ann', 'content-length': String(5 * 1024 * 1024 * 1024) },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(counted.pulls).toBeLessThanOrEqual(1);
  });
});
