import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import type { ReactNode } from 'react';
import { messageText, type ChatConnection, type ChatMessage } from '@chatwire/core';
import { ChatProvider, createChatRegistry, type ChatRegistry } from '@chatwire/react';

/** The run input a connection receives. */
export type RunInput = Parameters<ChatConnection['run']>[0];

export const sleep = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `n` short text deltas, `d0 d1 d2 ...`. */
export function deltas(n: number, prefix = 'd'): string[] {
  return Array.from({ length: n }, (_, index) => `${prefix}${index} `);
}

/** The text of the last message when it is the assistant's, else ''. */
export function lastAnswer(messages: readonly ChatMessage[]): string {
  const last = messages[messages.length - 1];
  return last?.role === 'assistant' ? messageText(last) : '';
}

/** The text `deltas(n)` adds up to. */
export const joined = (parts: readonly string[]) => parts.join('');

/**
 * Lets a slow connection go on step by step: each `pass()` waits for a permit (`release(n)` or
 * `open()`), and gives up (returns false) when the run's signal aborts.
 */
export class Gate {
  #allowed = 0;
  #waiters = new Set<() => void>();
  /** How many steps went through. */
  passed = 0;

  release(count = 1): void {
    this.#allowed += count;
    this.#wake();
  }

  open(): void {
    this.#allowed = Number.POSITIVE_INFINITY;
    this.#wake();
  }

  async pass(signal?: AbortSignal): Promise<boolean> {
    while (this.passed >= this.#allowed) {
      if (signal?.aborted) return false;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        this.#waiters.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
    if (signal?.aborted) return false;
    this.passed++;
    return true;
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}

export interface TextAnswerOptions {
  /** Wait on this gate before each delta. */
  readonly gate?: Gate;
  /** Yield a macrotask every this many deltas (so a fast stream still spans real time). */
  readonly macrotaskEvery?: number;
  /** Wait this many ms (instead of 0) at each macrotask break. */
  readonly breakMs?: number;
  readonly signal?: AbortSignal;
}

/** One AG-UI run that streams `parts` as one assistant text message. */
export async function* textAnswer(input: RunInput, parts: readonly string[], options: TextAnswerOptions = {}): AsyncGenerator<unknown> {
  const messageId = `m_${input.runId}`;
  yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
  yield { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' };
  for (let index = 0; index < parts.length; index++) {
    if (options.gate && !(await options.gate.pass(options.signal))) return;
    if (options.macrotaskEvery && index > 0 && index % options.macrotaskEvery === 0) await sleep(options.breakMs ?? 0);
    yield { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: parts[index] };
  }
  yield { type: 'TEXT_MESSAGE_END', messageId };
  yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
}

/**
 * A connection whose runs come from `script` (called with the run's index), recording every run
 * input it receives.
 */
export function scriptedConnection(script: (input: RunInput, run: number, signal: AbortSignal) => AsyncIterable<unknown>): {
  readonly connection: ChatConnection;
  readonly runs: RunInput[];
} {
  const runs: RunInput[] = [];
  const connection: ChatConnection = {
    run(input, { signal }) {
      runs.push(input);
      return script(input, runs.length - 1, signal);
    },
  };
  return { connection, runs };
}

/** A connection that answers every run with `parts`, one gate permit per delta. */
export function gatedConnection(parts: readonly string[], gate = new Gate()) {
  const scripted = scriptedConnection((input, _run, signal) => textAnswer(input, parts, { gate, signal }));
  return { ...scripted, gate };
}

/** A `wrapper` for render / renderHook that puts chats in `registry` (a `ChatProvider`). */
export function withRegistry(registry: ChatRegistry) {
  return function RegistryWrapper({ children }: { readonly children?: ReactNode }) {
    return <ChatProvider registry={registry}>{children}</ChatProvider>;
  };
}

/** SSE text for a list of events. */
function sse(events: readonly unknown[]): string {
  return events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
}

/** A `text/event-stream` response whose body is `events` as SSE. */
export function sseResponse(events: readonly unknown[]): Response {
  return new Response(sse(events), { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/** A JSON response. */
export function jsonResponse(value: unknown): Response {
  return new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
}

/** The events of a plain text answer (for SSE bodies). */
export function textAnswerEvents(threadId: string, runId: string, text: string): unknown[] {
  const messageId = `m_${runId}`;
  return [
    { type: 'RUN_STARTED', threadId, runId },
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: text },
    { type: 'TEXT_MESSAGE_END', messageId },
    { type: 'RUN_FINISHED', threadId, runId },
  ];
}

type ActGlobal = typeof globalThis & { IS_REACT_ACT_ENVIRONMENT?: boolean };

/**
 * Runs `work` with React's act environment off, so React schedules renders as in a browser (act
 * would hold every update of an async scope back and commit them all at once at its end).
 */
export async function outsideAct<T>(work: () => Promise<T>): Promise<T> {
  const global = globalThis as ActGlobal;
  const previous = global.IS_REACT_ACT_ENVIRONMENT;
  global.IS_REACT_ACT_ENVIRONMENT = false;
  try {
    return await work();
  } finally {
    global.IS_REACT_ACT_ENVIRONMENT = previous;
  }
}

/** Resolves once `predicate` holds, checking after every macrotask (for use outside act). */
export async function until(predicate: () => boolean, timeoutMs = 4_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out after ${timeoutMs} ms`);
    await sleep(1);
  }
}

/**
 * Counts animation frames whose callbacks actually ran (distinct frame timestamps) while installed,
 * by wrapping `window.requestAnimationFrame`. Call `stop()` to stop counting and restore it.
 */
export function countAnimationFrames() {
  const original = window.requestAnimationFrame;
  const frames = new Set<number>();
  let callbacks = 0;
  let requests = 0;
  let counting = true;
  window.requestAnimationFrame = (callback: FrameRequestCallback) => {
    if (counting) requests++;
    return original.call(window, (time) => {
      if (counting) {
        frames.add(time);
        callbacks++;
      }
      callback(time);
    });
  };
  return {
    get frames() {
      return frames.size;
    },
    get callbacks() {
      return callbacks;
    },
    /** How many frames were requested. */
    get requests() {
      return requests;
    },
    stop() {
      counting = false;
      window.requestAnimationFrame = original;
    },
  };
}

const liveRegistries: ChatRegistry[] = [];

/** A chat registry for one test; every one made is disposed after the test (see {@link cleanupAfterEach}). */
export function freshRegistry(): ChatRegistry {
  const registry = createChatRegistry();
  liveRegistries.push(registry);
  return registry;
}

/** The shared cleanup of these tests: unmount, dispose the test registries, undo stubs. */
export function cleanupAfterEach(extra?: () => void): void {
  afterEach(() => {
    cleanup();
    for (const registry of liveRegistries.splice(0)) registry.dispose();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    extra?.();
  });
}

/** The conversation as a plain list (role and text per message), for test components. */
export function MessageItems({ messages }: { readonly messages: readonly ChatMessage[] }) {
  return (
    <ul>
      {messages.map((message) => (
        <li key={message.id} data-role={message.role}>
          {messageText(message)}
        </li>
      ))}
    </ul>
  );
}
