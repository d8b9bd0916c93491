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

const isOtelApi = (value: unknown): value is OtelApi =>
  typeof (value as Partial<OtelApi> | null)?.trace?.getTracer === 'function' &&
  typeof (value as Partial<OtelApi>).context?.active === 'function';

/**
 * The API from what `import()` gave: `@opentelemetry/api` is CommonJS, and a dynamic import of it is
 * shaped by whoever loads it. Node gives the namespace with the named exports (and `default`); a
 * bundler's chunk (esbuild with `splitting` and `format: 'esm'`, for one) may give only `default`,
 * the module's `exports`. Neither shape usable: telemetry stays off rather than failing every run.
 */
function apiOf(module: unknown): OtelApi | null {
  if (isOtelApi(module)) return module;
  const exported = (module as { default?: unknown } | null)?.default;
  return isOtelApi(exported) ? exported : null;
}

/** Loads `@opentelemetry/api` once; resolves `null` when the app does not have it. */
export function loadOtelApi(): Promise<OtelApi | null> {
  loading ??= import('@opentelemetry/api').then(
    (module: unknown) => (loaded = apiOf(module)),
    () => (loaded = null),
  );
  return loading;
}

// Loading starts with the server package, so runs after the first milliseconds find the API ready
// and are never delayed by it (a run that starts before waits for it: see tracedRun).
void loadOtelApi();
