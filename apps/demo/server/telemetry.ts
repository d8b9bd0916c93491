/**
 * OpenTelemetry for the demo server, only when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces-only
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: the SDK is set up and registered globally, and the
 * chat handler's spans and metrics (through `@opentelemetry/api`) go to that OTLP/HTTP endpoint.
 * Without the variable nothing is imported or registered, and the handler observes nothing.
 *
 * ```sh
 * OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 npm start
 * ```
 */
export interface DemoTelemetry {
  /** Flushes what is buffered and stops exporting. */
  readonly shutdown: () => Promise<void>;
  /** Where spans go. */
  readonly endpoint: string;
}

/** Starts exporting when the environment names an OTLP endpoint; `undefined` otherwise. */
export async function startDemoTelemetry(env: NodeJS.ProcessEnv): Promise<DemoTelemetry | undefined> {
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  const root = base?.endsWith('/') ? base.slice(0, -1) : base;
  // As the OTLP exporter specification reads them: the signal's own variable as is, else the base plus its path.
  const endpoint = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || (root ? `${root}/v1/traces` : undefined);
  if (!endpoint) return undefined;
  const metricsEndpoint = env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'] || (root ? `${root}/v1/metrics` : undefined);
  const [api, core, resources, traces, traceExporter, sdkMetrics, metricExporter] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
  ]);
  const resource = resources.resourceFromAttributes({ 'service.name': env['OTEL_SERVICE_NAME'] || 'chatwire-demo' });
  // Headers and timeouts: the exporters read OTEL_EXPORTER_OTLP_HEADERS / _TIMEOUT themselves.
  const tracerProvider = new traces.BasicTracerProvider({
    resource,
    spanProcessors: [new traces.BatchSpanProcessor(new traceExporter.OTLPTraceExporter({ url: endpoint }))],
  });
  const meterProvider = new sdkMetrics.MeterProvider({
    resource,
    readers: metricsEndpoint
      ? [
          new sdkMetrics.PeriodicExportingMetricReader({
            exporter: new metricExporter.OTLPMetricExporter({ url: metricsEndpoint }),
            exportIntervalMillis: Number(env['OTEL_METRIC_EXPORT_INTERVAL'] || 10_000),
          }),
        ]
      : [],
  });
  api.trace.setGlobalTracerProvider(tracerProvider);
  api.metrics.setGlobalMeterProvider(meterProvider);
  // A browser's or a gateway's `traceparent` continues its trace in the chat handler's spans.
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  return {
    endpoint,
    shutdown: async () => {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
      api.trace.disable();
      api.metrics.disable();
      api.propagation.disable();
    },
  };
}
