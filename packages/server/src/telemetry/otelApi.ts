import type * as OtelApiModule from '@opentelemetry/api';

/** The `@opentelemetry/api` module, when the app has it installed. */
export type OtelApi = typeof OtelApiModule;

// `@opentelemetry/api` is an optional peer dependency: loaded on first use, never required.
// `undefined`: not tried yet; `null`: not installed (telemetry stays off).
let loaded: OtelApi | null | undefined;
let loading: Promise<OtelApi | null> | undefined;

/** The API module if it has been loaded (`null` when it is not installed, `undefined` before the first try). */
export function otelApi(): OtelApi | null | undefined {
  return loaded;
}

/** Loads `@opentelemetry/api` once; resolves `null` when the app does not have it. */
export function loadOtelApi(): Promise<OtelApi | null> {
  loading ??= import('@opentelemetry/api').then(
    (module) => (loaded = module),
    () => (loaded = null),
  );
  return loading;
}

// Loading starts with the server package, so runs after the first milliseconds find the API ready
// and are never delayed by it (a run that starts before waits for it: see tracedRun).
void loadOtelApi();
