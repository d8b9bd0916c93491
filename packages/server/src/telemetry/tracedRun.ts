import type { Event } from '@ag-ui/core';
import type { ChatOptions } from '../run/chatOptions.js';
import { INSTRUMENTATION_SCOPE } from './attributes.js';
import { genAiInstruments } from './genAiMetrics.js';
import { loadOtelApi, otelApi, type OtelApi } from './otelApi.js';
import { RunTrace } from './runTrace.js';

type RunEvents = AsyncGenerator<Event, void, undefined>;

/**
 * A run's events, observed for OpenTelemetry when the app registered an SDK: spans and metrics
 * (see {@link RunTrace}). Otherwise, with telemetry off, without `@opentelemetry/api`, or with
 * the API's no-op tracer and meter, it returns `events` itself: nothing is observed or computed.
 */
export function tracedRun(options: ChatOptions, events: RunEvents): RunEvents {
  if (options.telemetry?.enabled === false) return events;
  const api = otelApi();
  if (api === null) return events;
  if (api === undefined) return afterLoading(options, events);
  const trace = startRunTrace(api, options);
  return trace ? observed(trace, events) : events;
}

/** The first run of the process: the API module loads first (it is an optional peer dependency). */
async function* afterLoading(options: ChatOptions, events: RunEvents): RunEvents {
  const api = await loadOtelApi();
  const trace = api ? startRunTrace(api, options) : undefined;
  if (trace) yield* observed(trace, events);
  else yield* events;
}

/**
 * The run's trace, or `undefined` when nothing would record it: the tracer's span does not record
 * (no SDK, or not sampled) and no meter provider is registered. Nothing else is computed before.
 */
function startRunTrace(api: OtelApi, options: ChatOptions): RunTrace | undefined {
  const tracer = api.trace.getTracer(INSTRUMENTATION_SCOPE);
  // A browser's or a gateway's trace continues: W3C `traceparent` through the registered propagator.
  // Only when a propagator is registered (the default one reads no field): the node adapter builds a
  // run's `request` only when something reads it.
  const parent =
    api.propagation.fields().length > 0 && options.request
      ? api.propagation.extract(api.ROOT_CONTEXT, options.request.headers, headerGetter)
      : api.context.active();
  const root = tracer.startSpan(`invoke_agent ${options.telemetry?.agentName ?? 'chatwire'}`, { kind: api.SpanKind.INTERNAL }, parent);
  const metrics = genAiInstruments(api);
  if (!root.isRecording() && !metrics) {
    root.end();
    return undefined;
  }
  return new RunTrace(api, tracer, root, parent, options, metrics);
}

const headerGetter = {
  keys: (headers: Headers) => [...headers.keys()],
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
};

async function* observed(trace: RunTrace, events: RunEvents): RunEvents {
  let failure: unknown;
  try {
    for await (const event of events) {
      try {
        trace.observe(event);
      } catch {
        // Telemetry never breaks a run.
      }
      yield event;
    }
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    try {
      trace.end(failure);
    } catch {
      // Telemetry never breaks a run.
    }
  }
}
