import type { Event, Message, ResumeEntry } from '@ag-ui/core';
import { createChatHandler, createMemoryStore, createScriptedModel } from '@chatwire/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEvents, interruptsOf, readEvents, user } from '../../server/tests/fixtures.js';
import { connectMcpServers, type McpServers } from '../src/index.js';
import { FAULTY, SERVERS, stdio } from './mcpFixtures.js';

/** A server's elicitation during a chat: an input_request interrupt, answered by the next request. */
describe('MCP elicitation through the chat handler', () => {
  let mcp: McpServers;
  beforeAll(async () => {
    mcp = await connectMcpServers({ mcpServers: { everything: stdio(SERVERS.everything, ['stdio']), odd: stdio(FAULTY) } });
  }, 30_000);
  afterAll(async () => {
    await mcp?.close();
  });

  const setup = () => {
    const handler = createChatHandler({
      model: createScriptedModel(),
      tools: () => mcp.tools(),
      secret: 'elicit-secret',
      store: createMemoryStore(),
    });
    return async (messages: readonly Message[], resume?: ResumeEntry[]) => {
      const response = await handler(
        new Request('http://chatwire.test/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            threadId: 'thread_mcp',
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
    };
  };
  const resultOf = (events: readonly Event[]) => events.find((event) => event.type === 'TOOL_CALL_RESULT');

  it("server-everything's elicitation becomes an input_request interrupt with its message and schema; accept goes back to the server and the run goes on", async () => {
    const send = setup();
    const history = [user('use everything__trigger-elicitation-request', 'u1')];
    const first = await send(history);
    const [interrupt] = interruptsOf(first);
    expect(interrupt).toMatchObject({ reason: 'input_request', message: 'Please provide inputs for the following fields:' });
    expect(JSON.stringify(interrupt?.metadata)).toContain('Your full, legal name');
    expect(resultOf(first)).toBeUndefined();
    const resumed = await send(applyEvents(history, first), [
      {
        interruptId: interrupt!.id,
        status: 'resolved',
        payload: { action: 'accept', content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' } },
      },
    ]);
    expect(String(resultOf(resumed)?.content)).toContain('Ada Lovelace');
    expect(resumed.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('decline goes back to the server as decline', async () => {
    const send = setup();
    const history = [user('use odd__ask', 'u1')];
    const first = await send(history);
    const [interrupt] = interruptsOf(first);
    expect(interrupt).toMatchObject({ reason: 'input_request', message: 'Your name?' });
    const resumed = await send(applyEvents(history, first), [
      { interruptId: interrupt!.id, status: 'resolved', payload: { action: 'decline' } },
    ]);
    expect(String(resultOf(resumed)?.content)).toContain('decline');
  });
});
