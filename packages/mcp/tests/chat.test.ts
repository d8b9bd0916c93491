import type { Event, Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, type ModelCallUsage } from '@chatwire/core';
import {
  chat,
  createChatHandler,
  createScriptedModel,
  createToolsHandler,
  type ChatModel,
  type ChatOptions,
  type ModelTool,
} from '@chatwire/server';
import { validateChatRequest } from '@chatwire/server/extension';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEvents, collect, interruptsOf, readEvents, runInput, user } from '../../server/tests/fixtures.js';
import { readResultMetadata } from '@chatwire/core/wire';
import { connectMcpServers, type McpServers } from '../src/index.js';
import { FAULTY, stdio, until } from './mcpFixtures.js';

const usages = (events: Event[]) =>
  events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage' ? [event.value as ModelCallUsage] : []));
const results = (events: Event[]) => events.flatMap((event) => (event.type === 'TOOL_CALL_RESULT' ? [event] : []));
const callsOf = (events: Event[]) => events.flatMap((event) => (event.type === 'TOOL_CALL_START' ? [event.toolCallName] : []));

/** chat() with the scripted model, recording the tools of every model call. */
function recording(tools: () => ChatOptions['tools']) {
  const calls: ModelTool[][] = [];
  const scripted = createScriptedModel();
  const model: ChatModel = { ...scripted, stream: (request) => (calls.push([...request.tools]), scripted.stream(request)) };
  const run = async (messages: Message[]) => {
    const events = await collect(chat({ model, messages, tools: tools(), threadId: 't', secret: 'test-secret' }));
    return { events, history: applyEvents(messages, events) };
  };
  return { calls, run };
}

describe('a 600-tool MCP server with lazy auto, through chat()', () => {
  let mcp: McpServers;
  beforeAll(async () => {
    mcp = await connectMcpServers({ mcpServers: { big: stdio(FAULTY, ['many', '600']) } });
  }, 30_000);
  afterAll(async () => {
    await mcp?.close();
  });

  it('defers all 600; the first model call sends under 5,000 tool tokens (all eager would be over 30,000), then discovery and a call work', async () => {
    const status = mcp.status()[0];
    expect(status?.toolCount).toBe(600);
    expect(status?.lazy).toMatchObject({ lazy: true, mode: 'auto' });
    expect(status?.lazy.tokens).toBeGreaterThan(30_000);
    const { calls, run } = recording(() => mcp.tools());
    const { events } = await run([user('use big__generated_tool_421 with value: hello')]);
    const first = usages(events)[0];
    expect(first?.toolsSent).toEqual([DISCOVERY_TOOL_NAME]);
    expect(first?.tokens.sent).toBeLessThan(5_000);
    expect(first?.tokens.allEager).toBeGreaterThan(30_000);
    expect(calls[0]?.map((tool) => tool.name)).toEqual([DISCOVERY_TOOL_NAME]);
    expect(callsOf(events)).toEqual([DISCOVERY_TOOL_NAME, 'big__generated_tool_421']);
    expect(calls[1]?.map((tool) => tool.name)).toEqual([DISCOVERY_TOOL_NAME, 'big__generated_tool_421']);
    const answer = results(events).at(-1);
    expect(answer?.content).toContain('generated_tool_421');
    expect(answer?.content).toContain('hello');
  });
});

describe('MCP tools in the agent loop', () => {
  let mcp: McpServers;
  beforeAll(async () => {
    mcp = await connectMcpServers({
      mcpServers: {
        odd: { ...stdio(FAULTY), lazy: true },
        gone: { ...stdio(FAULTY, ['hang']), connectTimeoutMs: 300 },
      },
    });
  }, 30_000);
  afterAll(async () => {
    await mcp?.close();
  });

  it('a destructive tool of an untrusted server ends the run with an approval interrupt', async () => {
    const { run } = recording(() => mcp.tools());
    const { events } = await run([user('use odd__delete_all')]);
    const finished = events.at(-1);
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    expect(results(events).some((result) => JSON.stringify(result.content).includes('deleted'))).toBe(false);
  });

  it('denied: the MCP call ends cancelled (denied) without reaching the server, and the next message works', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), tools: () => mcp.tools(), secret: 'test-secret' });
    const send = async (messages: Message[], extra: Record<string, unknown> = {}) =>
      readEvents(
        await handler(
          new Request('http://chatwire.test/api/chat', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(runInput(messages, { threadId: 't_denied', ...extra })),
          }),
        ),
      );
    const history = [user('use odd__delete_all')];
    const first = await send(history);
    const [interrupt] = interruptsOf(first);
    expect(interrupt?.reason).toBe('tool_call');
    const asked = applyEvents(history, first);
    const resumed = await send(asked, {
      resume: [
        {
          interruptId: interrupt!.id,
          status: 'resolved',
          payload: { approved: false, reason: 'keep my data' },
          metadata: interrupt!.metadata,
        },
      ],
    });
    const denied = results(resumed).find((result) => result.toolCallId === interrupt!.toolCallId);
    expect(denied).toBeDefined();
    expect(readResultMetadata(denied!.metadata)).toMatchObject({ outcome: 'cancelled', reason: 'denied' });
    expect(JSON.stringify(denied!.content)).not.toContain('deleted');
    expect(resumed.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect(interruptsOf(resumed)).toEqual([]);
    const after = await send([...applyEvents(asked, resumed), user('use odd__echo with text still here')]);
    expect(after.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect(results(after).at(-1)?.content).toContain('still here');
  });

  it('an isError result with a secret in it reaches the client redacted', async () => {
    const { run } = recording(() => mcp.tools());
    const { events } = await run([user('use odd__fails')]);
    const failed = results(events).at(-1);
    expect(failed?.content).toContain("server 'odd' reported an error");
    expect(failed?.content).not.toContain('hunter2');
  });

  it('drift: a tool whose schema changed after discovery must be discovered again', async () => {
    const { run, calls } = recording(() => mcp.tools());
    const first = await run([user('use odd__target with text hello')]);
    expect(callsOf(first.events)).toEqual([DISCOVERY_TOOL_NAME, 'odd__target']);
    const discovery = results(first.events)[0];
    expect(JSON.parse(String(discovery?.content ?? '{}'))).toHaveProperty(['versions', 'odd__target']);
    // Still discovered on the next turn: sent from the first model call on.
    const before = calls.length;
    const second = await run([...first.history, user('hello again')]);
    expect(calls[before]?.map((tool) => tool.name)).toContain('odd__target');
    // The server changes the tool's schema (and says so with list_changed).
    const print = mcp.status()[0]?.fingerprints['odd__target'];
    await recording(() => mcp.tools()).run([user('use odd__change_target')]);
    await until(() => mcp.status()[0]?.fingerprints['odd__target'] !== print);
    const after = calls.length;
    await run([...second.history, user('hello once more')]);
    expect(calls[after]?.map((tool) => tool.name)).not.toContain('odd__target');
  });

  it('drift: an approval asked before the tool changed no longer matches it (the request is refused, saying so)', async () => {
    const { run } = recording(() => mcp.tools());
    const asked = await run([user('use odd__delete_all')]);
    const finished = asked.events.at(-1) as { outcome?: { interrupts?: { id: string }[] } };
    const interruptId = finished.outcome?.interrupts?.[0]?.id ?? '';
    const options = { model: createScriptedModel(), tools: mcp.tools(), threadId: 't', secret: 'test-secret', messages: asked.history };
    // Before the change, the approval matches.
    await expect(
      validateChatRequest({ ...options, resume: [{ interruptId, status: 'resolved', payload: { approved: true } }] }),
    ).resolves.toBeUndefined();
    const print = mcp.status()[0]?.fingerprints['odd__delete_all'];
    await recording(() => mcp.tools()).run([user('use odd__change_target')]);
    await until(() => mcp.status()[0]?.fingerprints['odd__delete_all'] !== print);
    await expect(
      validateChatRequest({ ...options, tools: mcp.tools(), resume: [{ interruptId, status: 'resolved', payload: { approved: true } }] }),
    ).rejects.toThrow(/does not match 'odd__delete_all' as it was requested: the tool or its arguments changed/);
  });

  it('a server that never connected has no tools; the chat goes on with the others', async () => {
    expect(mcp.status().find((server) => server.name === 'gone')?.state).toBe('failed');
    const { run } = recording(() => mcp.tools());
    const { events } = await run([user('use odd__echo with text hi')]);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect(results(events).at(-1)?.content).toContain('hi');
  });

  it('the chat handler takes a tools provider: each request gets the current list', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), tools: () => mcp.tools(), secret: 'test-secret' });
    const response = await handler(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput([user('use odd__echo with text via handler')])),
      }),
    );
    const events = await readEvents(response);
    expect(results(events).at(-1)?.content).toContain('via handler');
    const catalog = (await (await createToolsHandler(() => mcp.tools())(new Request('http://localhost/api/tools'))).json()) as {
      tools: { name: string }[];
    };
    expect(catalog.tools.map((tool) => tool.name)).toContain('odd__echo');
  });
});
