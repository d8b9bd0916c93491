/**
 * Why Code Mode refused a configuration (thrown by `createCodeMode` and drivers at setup).
 *
 * - `invalid-tool-name`: a tool's name is not a JavaScript identifier, or is a reserved word.
 * - `duplicate-tool`: two tools share a name.
 * - `not-a-server-tool`: a tool has no server implementation (`.server(impl)`).
 * - `invalid-limit`: a limit is not a positive finite number (or exceeds what the engine allows).
 * - `invalid-option`: another option has a value Code Mode cannot use.
 */
export type CodeModeErrorCode = 'invalid-tool-name' | 'duplicate-tool' | 'not-a-server-tool' | 'invalid-limit' | 'invalid-option';

/**
 * A configuration error with a stable {@link CodeModeErrorCode}. Failures of an execution are never
 * thrown: they come back as data ({@link ExecutionError}).
 *
 * @example
 * ```ts
 * try { createCodeMode({ tools }); } catch (error) { if (error instanceof CodeModeError) console.error(error.code); }
 * ```
 */
export class CodeModeError extends Error {
  /** Machine-readable reason. */
  readonly code: CodeModeErrorCode;

  constructor(code: CodeModeErrorCode, message: string) {
    super(message);
    this.name = 'CodeModeError';
    this.code = code;
  }
}

/**
 * How an execution failed, as a stable string.
 *
 * - `code-too-large`: the code exceeded `maxCodeBytes` (nothing ran).
 * - `syntax`: the TypeScript did not parse or transpile (nothing ran).
 * - `timeout`: the wall-clock budget (`timeoutMs`, time in tools included) ran out.
 * - `memory`: the guest exceeded `memoryLimitMb`.
 * - `stack`: the guest exceeded `maxStackBytes` (runaway recursion).
 * - `result`: the returned value is not JSON (a BigInt, a cycle).
 * - `never-settled`: the code awaited something that can never resolve (nothing else was pending).
 * - `aborted`: the caller's signal stopped the execution (the user stopped the run).
 * - `sandbox`: the sandbox itself failed (an engine trap, a worker that died); the next execution gets a fresh one.
 * - `guest`: the code threw (the error's own name and message are kept).
 */
export type ExecutionErrorCode =
  'code-too-large' | 'syntax' | 'timeout' | 'memory' | 'stack' | 'result' | 'never-settled' | 'aborted' | 'sandbox' | 'guest';

/** A failed execution's error, as the model and the UI read it: strings only, nothing from the host. */
export interface ExecutionError {
  readonly code: ExecutionErrorCode;
  /** The error's name (`TimeoutError`, `TypeScriptError`, or the guest's own, e.g. `TypeError`). */
  readonly name: string;
  readonly message: string;
  /** 1-based line in the submitted TypeScript, when known. */
  readonly line?: number;
}
