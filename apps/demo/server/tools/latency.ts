import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolContext, ToolExecute } from '@chatwire/core';

/** Wraps a tool's implementation so each call first waits the simulated latency (abortable). */
export type Latency = <Input, Output>(execute: (input: Input, context: ToolContext) => Output | Promise<Output>) => ToolExecute<Input, Output>;

/** The latency wrapper for `delayMs` milliseconds per call (0: the implementation as is). */
export function withLatency(delayMs: number): Latency {
  return (execute) =>
    delayMs === 0
      ? execute
      : async (input, context) => {
          await sleep(delayMs, undefined, { signal: context.signal });
          return execute(input, context);
        };
}
