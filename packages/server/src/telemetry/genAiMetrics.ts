import type { Histogram, Meter } from '@opentelemetry/api';
import { INSTRUMENTATION_SCOPE, METRICS } from './attributes.js';
import type { OtelApi } from './otelApi.js';

/** The histograms a run records to. */
export interface GenAiInstruments {
  readonly duration: Histogram;
  readonly firstChunk: Histogram;
  readonly tokenUsage: Histogram;
  readonly runSaved: Histogram;
  readonly runRoundTrips: Histogram;
}

// Bucket boundaries the GenAI conventions advise for durations (seconds) and token counts.
const SECONDS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

let cached: { readonly meter: Meter; readonly instruments: GenAiInstruments } | undefined;
let noopMeterType: unknown;

/**
 * The histograms on the global meter provider, or `undefined` when none is registered (the API's
 * no-op meter: nothing would be recorded, so nothing is observed for metrics).
 */
export function genAiInstruments(api: OtelApi): GenAiInstruments | undefined {
  const meter = api.metrics.getMeter(INSTRUMENTATION_SCOPE);
  noopMeterType ??= Object.getPrototypeOf(api.createNoopMeter());
  if (Object.getPrototypeOf(meter) === noopMeterType) return undefined;
  if (cached?.meter === meter) return cached.instruments;
  const histogram = (name: string, unit: string, description: string, boundaries: number[]) =>
    meter.createHistogram(name, { unit, description, advice: { explicitBucketBoundaries: boundaries } });
  const instruments: GenAiInstruments = {
    duration: histogram(METRICS.duration, 's', 'Duration of one model call, from the request to the end of its stream.', SECONDS),
    firstChunk: histogram(METRICS.firstChunk, 's', 'Time from a model call to the first chunk of its response stream.', SECONDS),
    tokenUsage: histogram(METRICS.tokenUsage, '{token}', 'Input and output tokens of one model call (gen_ai.token.type).', TOKENS),
    runSaved: histogram(
      METRICS.runSaved,
      '{token}',
      "Tool-definition tokens lazy discovery kept out of one run's model calls, against sending every tool.",
      TOKENS,
    ),
    runRoundTrips: histogram(METRICS.runRoundTrips, '{token}', "Tokens of one run's discovery calls and their results.", TOKENS),
  };
  cached = { meter, instruments };
  return instruments;
}
