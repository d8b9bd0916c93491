import { describe, expect, it, vi } from 'vitest';
import type { Event } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { readResultMetadata } from '@chatwire/core/wire';
import { chat, createScriptedModel, type ErrorReport } from '@chatwire/server';
import type { ScriptedToolCall } from '@chatwire/server/testing';
import { collect, user } from './fixtures.js';

const calls = (...toolCalls: ScriptedToolCall[]) => createScriptedModel({ rules: [{ name: 'test', when: 'go', reply: { toolCalls } }] });

const results = (events: Event[]) =>
  events.flatMap((event) =>
    event.type === 'TOOL_CALL_RESULT' ? [{ content: event.content as string, meta: readResultMetadata(event.metadata) }] : [],
  );
const text = (events: Event[]) => events.flatMap((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? [event.delta] : [])).join('');

const weatherImpl = vi.fn(async ({ city }: { city: string }) => ({ city, celsius: 20 }));
const getWeather = toolDefinition({
  name: 'getWeather',
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ city: z.string(), celsius: z.number() }),
}).server(weatherImpl);

async function runWith(toolCalls: ScriptedToolCall[], tools = [getWeather] as const) {
  weatherImpl.mockClear();
  return collect(chat({ model: calls(...toolCalls), messages: [user('go')], tools: [...tools] }));
}

describe('tool errors reach the model as results it can act on, and the conversation continues', () => {
  it('invalid arguments (schema failure): error result naming the field, tool not run', async () => {
    const events = await runWith([{ name: 'getWeather', args: { city: 42 } }]);
    const [result] = results(events);
    expect(result?.meta.outcome).toBe('error');
    expect(result?.meta.error).toMatch(/Invalid arguments for 'getWeather'.*city/s);
    expect(JSON.parse(result!.content)).toEqual({ error: result?.meta.error });
    expect(weatherImpl).not.toHaveBeenCalled();
    expect(text(events)).toMatch(/getWeather failed/);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('arguments that are not JSON: error result, tool not run', async () => {
    const events = await runWith([{ name: 'getWeather', argsText: '{"city": "Par' }]);
    expect(results(events)[0]?.meta.error).toMatch(/Invalid JSON in the arguments of 'getWeather'/);
    expect(weatherImpl).not.toHaveBeenCalled();
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('an unknown tool name: error result that lists the available tools', async () => {
    const events = await runWith([{ name: 'getWether', args: { city: 'Oslo' } }]);
    expect(results(events)[0]?.meta.error).toBe("Unknown tool 'getWether'. Available tools: getWeather.");
    expect(text(events)).toMatch(/getWether failed/);
  });

  it('a tool that throws: a safe error result for the model and the client, the details for onError; an exposed error keeps its message', async () => {
    const flaky = toolDefinition({ name: 'flaky', description: 'Fails.', inputSchema: z.object({}) }).server(async () => {
      throw new Error('database is down');
    });
    const reports: ErrorReport[] = [];
    const events = await collect(
      chat({
        model: calls({ name: 'flaky', args: {} }),
        messages: [user('go')],
        tools: [flaky],
        onError: (report) => reports.push(report),
      }),
    );
    const error = results(events)[0]?.meta.error ?? '';
    expect(error).toMatch(/^Tool 'flaky' failed \(ref err_[A-Za-z0-9_-]+; details are in the server log\)\.$/);
    expect(error).not.toContain('database is down');
    expect(reports).toMatchObject([{ kind: 'tool', toolName: 'flaky', message: 'database is down' }]);
    expect(error).toContain(reports[0]!.ref);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');

    const exposed = toolDefinition({ name: 'exposed', description: 'Fails for the model to read.', inputSchema: z.object({}) }).server(
      async () => {
        throw Object.assign(new Error('Unsupported currency XYZ.'), { expose: true });
      },
    );
    const shown = await collect(
      chat({ model: calls({ name: 'exposed', args: {} }), messages: [user('go')], tools: [exposed], onError: () => {} }),
    );
    expect(results(shown)[0]?.meta.error).toBe("Tool 'exposed' failed: Unsupported currency XYZ.");
  });

  it('a tool that exceeds its timeout: error result, run continues', async () => {
    const slow = toolDefinition({ name: 'slow', description: 'Never answers.', inputSchema: z.object({}), timeoutMs: 50 }).server(
      () => new Promise<never>(() => {}),
    );
    // The time limit is a timer: fake time moves it (49 ms: still running; 50 ms: the error), nothing waits on the clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let settled = false;
      const run = collect(chat({ model: calls({ name: 'slow', args: {} }), messages: [user('go')], tools: [slow] })).finally(
        () => (settled = true),
      );
      await vi.advanceTimersByTimeAsync(49);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const events = await run;
      expect(results(events)[0]?.meta.error).toBe("Tool 'slow' failed: timed out after 50 ms");
    } finally {
      vi.useRealTimers();
    }
  });

  it('an output that fails the output schema: error result', async () => {
    const wrong = toolDefinition({
      name: 'wrong',
      description: 'Returns the wrong shape.',
      inputSchema: z.object({}),
      outputSchema: z.object({ count: z.number() }),
    }).server(async () => ({ count: 'three' }) as unknown as { count: number });
    const events = await collect(chat({ model: calls({ name: 'wrong', args: {} }), messages: [user('go')], tools: [wrong] }));
    expect(results(events)[0]?.meta.error).toMatch(/does not match its output schema.*count/s);
  });

  it('every error result is a valid tool result the next model call receives', async () => {
    const seen: unknown[] = [];
    const scripted = calls({ name: 'getWeather', args: { city: 42 } });
    const model = {
      ...scripted,
      stream: (request: Parameters<typeof scripted.stream>[0]) => (seen.push(request.messages), scripted.stream(request)),
    };
    await collect(chat({ model, messages: [user('go')], tools: [getWeather] }));
    const second = seen[1] as { role: string; toolCallId?: string; error?: string }[];
    const toolMessage = second.find((message) => message.role === 'tool');
    expect(toolMessage?.error).toMatch(/Invalid arguments/);
  });
});

describe('server tools', () => {
  it('run concurrently when one model response calls several', async () => {
    let started = 0;
    let release!: () => void;
    const bothStarted = new Promise<void>((resolve) => (release = resolve));
    const make = (name: string) =>
      toolDefinition({ name, description: `Tool ${name}.`, inputSchema: z.object({}) }).server(async () => {
        if (++started === 2) release();
        await bothStarted; // would deadlock if the tools ran one after the other
        return { name };
      });
    const events = await collect(
      chat({
        model: calls({ name: 'first', args: {} }, { name: 'second', args: {} }),
        messages: [user('go')],
        tools: [make('first'), make('second')],
      }),
    );
    expect(results(events).map((result) => JSON.parse(result.content))).toEqual(
      expect.arrayContaining([{ name: 'first' }, { name: 'second' }]),
    );
    const executing = events.filter((event) => event.type === 'CUSTOM' && event.name === 'chatwire.tool_executing');
    expect(executing).toHaveLength(2);
  });

  it('cannot be polluted through __proto__ or constructor keys in the arguments', async () => {
    const received = vi.fn();
    const echo = toolDefinition({
      name: 'echo',
      description: 'Echoes.',
      inputSchema: z.object({ city: z.string() }).passthrough(),
    }).server(async (input) => {
      received(input);
      return { ok: true };
    });
    const argsText = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"city":"Rome"}';
    await collect(chat({ model: calls({ name: 'echo', argsText }), messages: [user('go')], tools: [echo] }));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>)['polluted']).toBeUndefined();
    const input = received.mock.calls[0]?.[0] as Record<string, unknown>;
    expect(input['city']).toBe('Rome');
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(input['polluted']).toBeUndefined();
  });

  it('receive an abort signal that fires when the run is cancelled', async () => {
    const abort = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const waits = toolDefinition({ name: 'waits', description: 'Waits.', inputSchema: z.object({}) }).server(
      (_input, context) =>
        new Promise((resolve) => {
          toolSignal = context.signal;
          context.signal.addEventListener('abort', () => resolve({ aborted: true }));
          abort.abort();
        }),
    );
    await collect(chat({ model: calls({ name: 'waits', args: {} }), messages: [user('go')], tools: [waits], signal: abort.signal }));
    expect(toolSignal?.aborted).toBe(true);
  });
});
