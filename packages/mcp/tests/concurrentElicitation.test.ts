import type { InputRequest, InputResponse } from '@chatwire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServers, type McpServers } from '../src/index.js';
import { startLegacyElicitServer, startModernElicitServer, type ElicitServer } from './fixtures/elicitServers.js';
import { FAULTY, byName, run, stdio } from './mcpFixtures.js';

/**
 * Elicitation with many calls of one server in flight at once: each question reaches the user of
 * the call it belongs to, and each answer goes back to that call. A 2026-07-28 server's question
 * is its call's own `input_required` result; a 2025-era server's comes on its call's own response
 * stream. Where nothing names the call (stdio) and several are in flight, nobody is asked.
 */
let modern: ElicitServer;
let legacy: ElicitServer;
let mcp: McpServers;
beforeAll(async () => {
  [modern, legacy] = await Promise.all([startModernElicitServer(), startLegacyElicitServer()]);
  mcp = await connectMcpServers({
    mcpServers: {
      modern: { url: modern.url, lazy: false, toolTimeoutMs: 120_000 },
      legacy: { url: legacy.url, lazy: false, toolTimeoutMs: 120_000, versionNegotiation: 'legacy' },
      odd: stdio(FAULTY),
    },
  });
}, 30_000);
afterAll(async () => {
  await mcp?.close();
  await Promise.all([modern?.close(), legacy?.close()]);
});

/**
 * A user's `requestInput` that records each question and answers only once `all` questions have
 * arrived (so every call really waits at once), with `answer(question)`.
 */
function barrier(all: number) {
  const asked: string[] = [];
  let open: () => void = () => {};
  const ready = new Promise<void>((resolve) => (open = resolve));
  const user = (name: string, answer: (message: string) => string) => {
    const seen: string[] = [];
    const requestInput = async (request: InputRequest): Promise<InputResponse> => {
      seen.push(request.message);
      asked.push(request.message);
      if (asked.length === all) open();
      await ready;
      return { action: 'accept', content: { answer: answer(request.message) } };
    };
    return { name, seen, requestInput };
  };
  return { user, asked };
}

describe.each(['modern', 'legacy'] as const)('concurrent elicitations (%s server)', (server) => {
  it('the protocol revision is the one this case is about', () => {
    const status = mcp.status().find((entry) => entry.name === server);
    expect(status?.protocolVersion).toBe(server === 'modern' ? '2026-07-28' : '2025-11-25');
  });

  it('100 calls in flight at once: each question reaches its own call, and each answer goes back to it', async () => {
    const tool = byName(mcp.tools(), `${server}__ask`);
    const { user } = barrier(100);
    const outputs = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const caller = user(`user${i}`, () => `reply-${i}`);
        return run(tool, { label: `L${i}` }, { toolCallId: `call_${i}`, requestInput: caller.requestInput }).then((output) => ({
          output: JSON.stringify(output),
          seen: caller.seen,
        }));
      }),
    );
    outputs.forEach(({ output, seen }, i) => {
      expect(seen).toEqual([`Question for L${i}`]);
      expect(output).toContain(`answer for L${i}: reply-${i}`);
    });
  }, 120_000);

  it("a question for one user's call never reaches another user whose call is in flight on the same connection", async () => {
    const tool = byName(mcp.tools(), `${server}__ask`);
    const { user } = barrier(2);
    const ann = user('ann', () => 'from ann');
    const bob = user('bob', () => 'from bob');
    const [forAnn, forBob] = await Promise.all([
      run(tool, { label: 'ann' }, { toolCallId: 'call_ann', requestInput: ann.requestInput }),
      run(tool, { label: 'bob' }, { toolCallId: 'call_bob', requestInput: bob.requestInput }),
    ]);
    expect(ann.seen).toEqual(['Question for ann']);
    expect(bob.seen).toEqual(['Question for bob']);
    expect(JSON.stringify(forAnn)).toContain('answer for ann: from ann');
    expect(JSON.stringify(forBob)).toContain('answer for bob: from bob');
  }, 60_000);
});

describe('where nothing names the call (stdio)', () => {
  it('with two calls in flight, neither user is asked and the server hears decline', async () => {
    const tool = byName(mcp.tools(), 'odd__ask');
    const asked: string[] = [];
    const requestInput = async (request: InputRequest): Promise<InputResponse> => {
      asked.push(request.message);
      return { action: 'accept', content: { name: 'x' } };
    };
    const outputs = await Promise.all([
      run(tool, {}, { toolCallId: 'c1', requestInput }),
      run(tool, {}, { toolCallId: 'c2', requestInput }),
    ]);
    expect(asked).toEqual([]);
    expect(JSON.stringify(outputs)).toContain('decline');
  }, 30_000);
});
