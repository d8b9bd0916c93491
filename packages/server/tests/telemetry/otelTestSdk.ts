import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type Histogram as HistogramData, type MetricData } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

class TestMetricReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The OpenTelemetry SDK as an app registers it, with the in-memory exporter and a metric reader the
 * test collects from; `stop()` unregisters everything (the API falls back to its no-ops).
 */
export function registerTestSdk(exporter: SpanExporter = new InMemorySpanExporter()) {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestMetricReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  trace.setGlobalTracerProvider(provider);
  metrics.setGlobalMeterProvider(meterProvider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    provider,
    spans: (): ReadableSpan[] => (exporter instanceof InMemorySpanExporter ? exporter.getFinishedSpans() : []),
    reset: () => (exporter instanceof InMemorySpanExporter ? exporter.reset() : undefined),
    /** Each metric's data points by name. */
    metrics: async (): Promise<Map<string, MetricData>> => {
      const { resourceMetrics } = await reader.collect();
      const byName = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics) for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
      return byName;
    },
    stop: async () => {
      await provider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** The histogram points of one metric. */
export const histogramPoints = (metric: MetricData | undefined) =>
  (metric?.dataPoints ?? []) as { attributes: Record<string, unknown>; value: HistogramData }[];
