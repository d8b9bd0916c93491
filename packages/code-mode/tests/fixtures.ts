import type { Message } from '@ag-ui/core';
import { toolDefinition } from '@chatwire/core';
import { z } from 'zod';

/** Resolves after `ms`, or rejects when `signal` aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });
}

/** What the fixture tools saw, so tests can assert on the host side. */
export interface ToolLog {
  readonly inputs: unknown[];
  readonly signals: AbortSignal[];
  inFlight: number;
  maxInFlight: number;
  /** Resolves once the tools have been called `count` times in all (an event, for a test to act while a call runs). */
  called(count: number): Promise<void>;
}

/** A fresh set of fixture tools and a log of what they received. */
export function createFixtureTools() {
  const waiting: { count: number; resolve: () => void }[] = [];
  const log: ToolLog = {
    inputs: [],
    signals: [],
    inFlight: 0,
    maxInFlight: 0,
    called: (count) => (log.inputs.length >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve }))),
  };
  const track = async <T>(input: unknown, signal: AbortSignal, work: () => Promise<T>): Promise<T> => {
    log.inputs.push(input);
    log.signals.push(signal);
    for (const waiter of waiting.filter((each) => log.inputs.length >= each.count)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
    log.inFlight++;
    log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
    try {
      return await work();
    } finally {
      log.inFlight--;
    }
  };

  const getWeather = toolDefinition({
    name: 'getWeather',
    description: 'Current weather for a city.',
    inputSchema: z.object({ city: z.string().describe('City name') }),
    outputSchema: z.object({ city: z.string(), celsius: z.number() }),
  }).server((input, { signal }) =>
    track(input, signal, async () => {
      await sleep(20, signal);
      // A made-up but checkable value: the city's length in degrees.
      return { city: input.city, celsius: input.city.length };
    }),
  );

  const wait = toolDefinition({
    name: 'wait',
    description: 'Waits a number of milliseconds, then answers with it.',
    inputSchema: z.object({ ms: z.number().int().min(0) }),
  }).server((input, { signal }) =>
    track(input, signal, async () => {
      await sleep(input.ms, signal);
      return { waited: input.ms };
    }),
  );

  const fail = toolDefinition({
    name: 'fail',
    description: 'Always throws.',
    inputSchema: z.object({}),
  }).server((input, { signal }) =>
    track(input, signal, async () => {
      const error = new Error('boom at /srv/app/secret-path.ts:12');
      error.name = 'DatabaseError';
      throw error;
    }),
  );

  const echo = toolDefinition({
    name: 'echo',
    description: 'Returns its input.',
    inputSchema: z.record(z.string(), z.unknown()),
  }).server((input, { signal }) => track(input, signal, async () => input));

  const fetchArchive = toolDefinition({
    name: 'fetchArchive',
    description: 'Retrieve historical weather for a city. Slow and rarely needed.',
    inputSchema: z.object({ city: z.string(), year: z.number().int() }),
    lazy: true,
  }).server((input, { signal }) => track(input, signal, async () => ({ city: input.city, year: input.year, celsius: 11 })));

  const runReport = toolDefinition({
    name: 'runReport',
    description: 'Generate a summary report for a period! Includes charts.',
    inputSchema: z.object({ period: z.enum(['day', 'week', 'month']).describe('Reporting period') }),
    lazy: true,
  }).server((input, { signal }) => track(input, signal, async () => ({ period: input.period, rows: 3 })));

  const huge = toolDefinition({
    name: 'huge',
    description: 'Returns a string of the given size in MiB.',
    inputSchema: z.object({ mib: z.number() }),
  }).server((input, { signal }) => track(input, signal, async () => 'x'.repeat(input.mib * 1024 * 1024)));

  const deleteCity = toolDefinition({
    name: 'deleteCity',
    description: 'Deletes a city. Needs approval.',
    inputSchema: z.object({ city: z.string() }),
    needsApproval: true,
  }).server((input, { signal }) => track(input, signal, async () => ({ deleted: input.city })));

  const transfer = toolDefinition({
    name: 'transfer',
    description: 'Moves money; amounts over 100 need approval.',
    inputSchema: z.object({ amount: z.number() }),
    needsApproval: (input) => input.amount > 100,
  }).server((input, { signal }) => track(input, signal, async () => ({ moved: input.amount })));

  return {
    log,
    tools: { getWeather, wait, fail, echo, fetchArchive, runReport, huge, deleteCity, transfer },
    all: [getWeather, wait, fail, echo, fetchArchive, runReport, huge, deleteCity, transfer],
  };
}

/** An assistant message with tool calls (AG-UI wire shape). */
export function assistantCalls(id: string, calls: readonly { id: string; name: string; args: unknown }[]): Message {
  return {
    id,
    role: 'assistant',
    toolCalls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    })),
  };
}

/** A tool result message (AG-UI wire shape). */
export function toolResult(toolCallId: string, content: unknown, error?: string): Message {
  return { id: `result_${toolCallId}`, role: 'tool', toolCallId, content: JSON.stringify(content), ...(error ? { error } : {}) };
}
