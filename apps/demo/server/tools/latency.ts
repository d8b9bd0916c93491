import type { ToolContext, ToolExecute } from '@chatwire/core';

/** Wraps a tool's implementation so each call first waits the simulated latency (abortable). */
export type Latency = <Input, Output>(
  execute: (input: Input, context: ToolContext) => Output | Promise<Output>,
) => ToolExecute<Input, Output>;

/** Waits `ms` on the global timer (tests move it with fake timers); rejects with an `AbortError` when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(new DOMException('The simulated latency was aborted.', 'AbortError'));
    };
    if (signal.aborted) return abort();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal.addEventListener('abort', abort, { once: true });
  });
}

/** The latency wrapper for `delayMs` milliseconds per call (0: the implementation as is). */
export function withLatency(delayMs: number): Latency {
  return (execute) =>
    delayMs === 0
      ? execute
      : async (input, context) => {
          await pause(delayMs, context.signal);
          return execute(input, context);
        };
}
