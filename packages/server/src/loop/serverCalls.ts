import { EventType, type Event, type Interrupt, type Message } from '@ag-ui/core';
import { type InputResponse } from '@chatwire/core';
import { CHATWIRE_EVENTS } from '@chatwire/core/shared';
import type { PendingInput } from '../input/pendingInputs.js';
import { CallExecution, type CallSink } from './callExecution.js';
import { errorResult } from './resultEvents.js';
import { inputExpiredError } from '../input/inputExpiredError.js';
import type { RunContext } from '../run/runContext.js';
import type { PreparedCall } from './triageCalls.js';

/** An answer to a waiting call's input request, carried by this run's resume entries. */
export interface InputAnswer {
  readonly pending: PendingInput;
  readonly answer: InputResponse;
  readonly superseded?: boolean;
}

/**
 * Runs prepared server calls concurrently and yields, in the order they happen, each call's CUSTOM
 * events (`context.emit`) and its result as it settles. `answers` hands waiting calls (from an
 * earlier run) their input and streams the rest of them here. Returns the input requests of calls
 * that now wait for the user: they keep running, detached from this run, and the run ends with
 * these interrupts.
 */
export async function* executeServerCalls(
  context: RunContext,
  calls: readonly PreparedCall[],
  answers: readonly InputAnswer[] = [],
): AsyncGenerator<Event, Interrupt[], undefined> {
  if (calls.length === 0 && answers.length === 0) return [];
  for (const { call } of calls) {
    yield { type: EventType.CUSTOM, name: CHATWIRE_EVENTS.toolExecuting, value: { toolCallId: call.id } };
  }
  // Every call of this batch sees the history as it stood when they started (the assistant message
  // holding the calls included); results of its siblings are not in it.
  const messages: readonly Message[] = [...context.history];
  const queue: Event[] = [];
  const parked: Interrupt[] = [];
  const running = new Set<CallExecution>();
  const waiting = new Set<CallExecution>();
  let wake: (() => void) | undefined;
  const push = (event: Event) => {
    queue.push(event);
    wake?.();
  };
  const sinkFor = (execution: CallExecution): CallSink => ({
    push,
    settle: (event) => {
      running.delete(execution);
      push(event);
    },
    park: (interrupt) => {
      running.delete(execution);
      waiting.add(execution);
      parked.push(interrupt);
      wake?.();
    },
  });
  for (const { pending, answer, superseded } of answers) {
    // Superseded by a new message: the tool hears the cancel, and finishes with no run to report to.
    if (superseded) {
      pending.deliver(answer);
      continue;
    }
    const execution = waitingCallOf(pending);
    running.add(execution);
    execution.attach(context, sinkFor(execution));
    if (pending.deliver(answer)) continue;
    // It stopped waiting between the review and now (its time ran out): the call ended without the answer.
    running.delete(execution);
    execution.detach();
    yield expiredInputResult(context, pending);
  }
  for (const prepared of calls) {
    const execution = new CallExecution(context, prepared, messages);
    running.add(execution);
    execution.attach(context, sinkFor(execution));
    execution.start();
  }
  while (running.size > 0 || queue.length > 0) {
    if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    while (queue.length > 0) yield queue.shift() as Event;
  }
  // The calls asking for input outlive this run: the end of the run must not stop them.
  for (const execution of waiting) execution.detach();
  return parked;
}

/** The error result of a call whose input request stopped waiting before its answer arrived. */
function expiredInputResult(context: RunContext, pending: PendingInput): Event {
  return errorResult(context, waitingCallOf(pending).prepared.call, inputExpiredError(pending.toolName, pending.expiresAt));
}

/** The waiting call of an input request: input/ holds it opaquely; only `CallExecution.requestInput` registers one. */
const waitingCallOf = (pending: PendingInput): CallExecution => pending.call as CallExecution;
