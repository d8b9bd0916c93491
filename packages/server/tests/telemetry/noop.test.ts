import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Event } from '@ag-ui/core';
import { toolDefinition } from '@chatwire/core';
import { chat, createScriptedModel, type ChatOptions } from '@chatwire/server';
import { metrics, trace } from '@opentelemetry/api';
import { z } from 'zod';
import { otelApi } from '../../src/telemetry/otelApi.js';
import { RunTrace } from '../../src/telemetry/runTrace.js';
import { tracedRun } from '../../src/telemetry/tracedRun.js';
import { collect, user } from '../fixtures.js';
import { registerTestSdk } from './otelTestSdk.js';

const getWeather = toolDefinition({ name: 'getWeather', description: 'Weather.', inputSchema: z.object({ city: z.string() }) }).server(
  async ({ city }) => ({ city }),
);
const options = (): ChatOptions => ({
  model: createScriptedModel(),
  messages: [user('use getWeather {"city":"Oslo"}')],
  tools: [getWeather],
  secret: 's',
  threadId: 't',
  runId: 'r',
});
const names = (events: readonly Event[]) => events.map((event) => event.type);

afterEach(() => vi.restoreAllMocks());

describe('with no OpenTelemetry SDK registered, telemetry costs nothing', () => {
  it('the API (an optional peer) loads with the server package; a run observes nothing', async () => {
    const observe = vi.spyOn(RunTrace.prototype, 'observe');
    const events = await collect(chat(options()));
    expect(names(events)).toContain('TOOL_CALL_RESULT');
    expect(names(events).at(-1)).toBe('RUN_FINISHED');
    expect(otelApi()).toBeTruthy();
    expect(observe).not.toHaveBeenCalled();
  });

  it("a run's events are handed on as the very same generator: no wrapper, no RunTrace, no attribute computed", async () => {
    // The API's own no-op: its tracer's spans do not record, and no meter provider is registered.
    expect(trace.getTracer('@chatwire/server').startSpan('probe').isRecording()).toBe(false);
    const start = vi.spyOn(RunTrace.prototype, 'observe');
    const end = vi.spyOn(RunTrace.prototype, 'end');
    const events = (async function* (): AsyncGenerator<Event, void, undefined> {})();
    expect(tracedRun(options(), events)).toBe(events);
    const ran = await collect(chat(options()));
    expect(names(ran).at(-1)).toBe('RUN_FINISHED');
    expect(start).not.toHaveBeenCalled();
    expect(end).not.toHaveBeenCalled();
  });

  it('an SDK registered later is used from the next run on; unregistered again, runs pass through again', async () => {
    const sdk = registerTestSdk();
    try {
      const events = (async function* (): AsyncGenerator<Event, void, undefined> {})();
      expect(tracedRun(options(), events)).not.toBe(events);
      await collect(chat(options()));
      expect(sdk.spans().map((span) => span.name)).toContain('invoke_agent chatwire');
    } finally {
      await sdk.stop();
    }
    const events = (async function* (): AsyncGenerator<Event, void, undefined> {})();
    expect(tracedRun(options(), events)).toBe(events);
  });

  it('a meter provider alone (no tracer provider) still records the metrics', async () => {
    const sdk = registerTestSdk();
    trace.disable();
    try {
      await collect(chat(options()));
      expect(sdk.spans()).toEqual([]);
      expect((await sdk.metrics()).get('gen_ai.client.operation.duration')?.dataPoints.length).toBeGreaterThan(0);
    } finally {
      await sdk.stop();
      metrics.disable();
    }
  });
});
