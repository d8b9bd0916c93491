import type { InputResponse, JsonSchema } from '@chatwire/core';

/** The default of `ChatOptions.inputRequestTimeoutMs`: 5 minutes. */
export const DEFAULT_INPUT_TIMEOUT_MS = 5 * 60_000;

/** The longest a tool may ask to wait for input: 24 hours. */
export const MAX_INPUT_TIMEOUT_MS = 24 * 60 * 60_000;

/**
 * The most input requests that wait in one process at once. Each holds its call (and the history
 * it ran with) until answered or timed out, and a run's end frees its per-owner slot while the
 * call waits on: past this bound a tool's `requestInput` fails at once instead of adding one more.
 */
export const MAX_PENDING_INPUTS = 1_000;

/** A tool call waiting for the user's answer to its input request; `Call` is the running call itself. */
export interface PendingInput<Call = unknown> {
  /** The interrupt id (`inp_...`). */
  readonly id: string;
  readonly threadId: string;
  /** The user of the run that asked (`userOf`); only their request may answer. */
  readonly user: string | undefined;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The schema the answer's content is validated against. */
  readonly schema: JsonSchema;
  /** When the request stops waiting (ms since the epoch). */
  readonly expiresAt: number;
  /** The waiting call: the run that carries the answer attaches it before delivering. */
  readonly call: Call;
  /** Hands the answer to the waiting tool. Returns `false` when the request stopped waiting meanwhile (timed out or stopped). */
  readonly deliver: (answer: InputResponse) => boolean;
}

/**
 * The input requests waiting in this process. A waiting call is a live promise inside a running
 * tool, so it cannot move to another process: a deployment with several instances routes a chat's
 * requests to the instance that started its run (sticky sessions by thread id). A request another
 * process started, or one from before a restart, is answered with an error result instead.
 */
class PendingInputs {
  readonly #pending = new Map<string, { readonly input: PendingInput; readonly timer: ReturnType<typeof setTimeout> }>();

  /** Registers `input`; `onTimeout` runs when nobody answered by `input.expiresAt`. */
  add(input: PendingInput, onTimeout: () => void): void {
    const timer = setTimeout(
      () => {
        if (this.#pending.get(input.id)?.input !== input) return;
        this.#pending.delete(input.id);
        onTimeout();
      },
      Math.max(0, input.expiresAt - Date.now()),
    );
    // A waiting request does not keep the process alive.
    timer.unref?.();
    this.#pending.set(input.id, { input, timer });
  }

  /** The request `id` waiting here, if any. */
  get(id: string): PendingInput | undefined {
    return this.#pending.get(id)?.input;
  }

  /** Removes and returns the request `id` (it is being answered, or its call stopped). */
  take(id: string): PendingInput | undefined {
    const entry = this.#pending.get(id);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.#pending.delete(id);
    return entry.input;
  }

  /** How many requests wait in this process. */
  get size(): number {
    return this.#pending.size;
  }
}

/** The input requests of this process (every run and handler of the process shares it). */
export const pendingInputs = new PendingInputs();
