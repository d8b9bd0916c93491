import { CodeModeError } from './errors.js';

/** Limits of one `execute_typescript` execution. Every field is optional; see {@link DEFAULT_CODE_MODE_LIMITS}. */
export interface CodeModeLimits {
  /** Wall-clock budget of one execution, time spent in tools included; tools see their `signal` abort when it ends. Defaults to 10 000 ms. */
  readonly timeoutMs?: number;
  /** Memory the guest may allocate. Defaults to 64 MB. */
  readonly memoryLimitMb?: number;
  /** Native stack the guest may use (deep recursion ends in a `RangeError`). Defaults to 256 KiB (at most 512 KiB). */
  readonly maxStackBytes?: number;
  /** Largest accepted code, in UTF-8 bytes; larger code is refused before it is transpiled. Defaults to 32 KiB. */
  readonly maxCodeBytes?: number;
  /** External calls one execution may make; later calls throw in the guest. Defaults to 50. */
  readonly maxToolCalls?: number;
  /** External calls running at once; more wait their turn (so `Promise.all` of many calls still works). Defaults to 8. */
  readonly maxConcurrentToolCalls?: number;
  /** Largest returned value, in UTF-8 bytes of its JSON; longer results are cut, with a marker. Defaults to 32 KiB. */
  readonly maxResultBytes?: number;
  /** Console lines kept; later lines are dropped and counted in a marker line. Defaults to 100. */
  readonly maxLogLines?: number;
  /** Console bytes kept (UTF-8, all lines together); the line that crosses it is cut, with a marker. Defaults to 8 KiB. */
  readonly maxLogBytes?: number;
}

/** {@link CodeModeLimits} with every field set. */
export type ResolvedLimits = { readonly [K in keyof CodeModeLimits]-?: number };

/** The default limits: sized for what a model's code needs, and for what its result and logs cost in tokens on every later turn. */
export const DEFAULT_CODE_MODE_LIMITS: ResolvedLimits = Object.freeze({
  timeoutMs: 10_000,
  memoryLimitMb: 64,
  maxStackBytes: 256 * 1024,
  maxCodeBytes: 32 * 1024,
  maxToolCalls: 50,
  maxConcurrentToolCalls: 8,
  maxResultBytes: 32 * 1024,
  maxLogLines: 100,
  maxLogBytes: 8 * 1024,
});

/**
 * @deprecated Renamed {@link DEFAULT_CODE_MODE_LIMITS} (each package's defaults are named after what
 * they limit; the server's request limits are `DEFAULT_REQUEST_LIMITS`). This alias is removed in the next minor version.
 * @alias
 */
export const DEFAULT_LIMITS = DEFAULT_CODE_MODE_LIMITS;

/** The engine's own stack ceiling (quickjs-wasi reserves half of its 1 MiB WASM stack). */
export const MAX_STACK_BYTES = 512 * 1024;

/** Fills in defaults and checks every limit; throws `CodeModeError` (`invalid-limit`) naming the bad one. */
export function resolveLimits(limits: CodeModeLimits = {}): ResolvedLimits {
  const resolved = { ...DEFAULT_CODE_MODE_LIMITS };
  for (const [key, value] of Object.entries(limits) as [keyof CodeModeLimits, unknown][]) {
    if (!(key in DEFAULT_CODE_MODE_LIMITS))
      throw new CodeModeError(
        'invalid-limit',
        `Unknown limit '${String(key)}'. Known limits: ${Object.keys(DEFAULT_CODE_MODE_LIMITS).join(', ')}.`,
      );
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 1) {
      throw new CodeModeError(
        'invalid-limit',
        `Limit '${key}' must be a finite number of at least 1 (got ${JSON.stringify(value) ?? typeof value}).`,
      );
    }
    resolved[key] = Math.floor(value);
  }
  if (resolved.maxStackBytes > MAX_STACK_BYTES) {
    throw new CodeModeError('invalid-limit', `Limit 'maxStackBytes' may be at most ${MAX_STACK_BYTES} (got ${resolved.maxStackBytes}).`);
  }
  return Object.freeze(resolved);
}
