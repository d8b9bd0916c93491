import type { ExecutionError } from '../errors.js';
import type { ResolvedLimits } from '../limits.js';

/** Console levels the guest can print at. */
export type ConsoleLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

/** The host's answer to one external call: the output's JSON, or an error as two strings. */
export type ToolReply =
  { readonly ok: true; readonly json: string | undefined } | { readonly ok: false; readonly name: string; readonly message: string };

/** One execution, as Code Mode hands it to a driver. */
export interface SandboxRequest {
  /** JavaScript: the body of an async function (it may `await` and `return`). */
  readonly code: string;
  /** The `external_*` functions to install, each forwarding to {@link callTool}. */
  readonly bindings: readonly string[];
  readonly limits: ResolvedLimits;
  /** `Date.now()` value at which the execution must stop (a driver interrupts guest code then). */
  readonly deadline: number;
  /** Aborted at the deadline, when the caller stops, or when the execution is over. */
  readonly signal: AbortSignal;
  /** Runs a tool on the host. Receives the guest's input as JSON text; never rejects. */
  callTool(binding: string, inputJson: string): Promise<ToolReply>;
  /** One console line from the guest. */
  log(level: ConsoleLevel, text: string): void;
}

/** How an execution ended, as the driver saw it. */
export type SandboxOutcome =
  | {
      readonly ok: true;
      /** JSON of the returned value (`undefined` when it returned nothing); may be pre-cut to `maxResultBytes` characters. */
      readonly json: string | undefined;
      /** Length of the whole JSON text in characters, before any cut. */
      readonly jsonLength: number;
      /** Console lines the driver dropped beyond `maxLogLines` without forwarding them. */
      readonly droppedLogLines: number;
    }
  | { readonly ok: false; readonly error: ExecutionError; readonly droppedLogLines: number };

/**
 * Runs guest code. A driver owns the engine and its isolation; Code Mode owns everything it can
 * enforce from the host (deadline, call counts and concurrency, result and log caps, validation).
 * `run` never rejects: every failure is an outcome. Run any driver through the conformance suite
 * (`tests/driverConformance.ts`) before trusting it.
 */
export interface SandboxDriver {
  /** For reports, e.g. `quickjs-wasi (worker thread)`. */
  readonly name: string;
  run(request: SandboxRequest): Promise<SandboxOutcome>;
  /** Starts whatever makes the first execution fast (compiles the engine, spawns a worker). Optional. */
  warmup?(): Promise<void>;
  /** Stops every worker or engine the driver holds. Executions still running end as `sandbox` failures. */
  dispose(): Promise<void>;
}
