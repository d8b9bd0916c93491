import type { Event as WireEvent, RunAgentInput } from '@ag-ui/core';
import type { ChatAction, ToolCallChange } from '../reduce/chatReducer.js';
import type { ChatSnapshot, ChatStatus } from '../model/chatState.js';
import type { ChatwireError } from '../base/errors.js';

/**
 * What a `ChatClient` reports to inspectors (devtools, logging, tests). A panel can be rebuilt from
 * this stream plus one `getSnapshot()`: `turn` starts a turn (the user message id), `request` and
 * `event` are the wire, `snapshot` carries every new snapshot, and `action` every action the store
 * reduces, before it does (plain data: replayed over the snapshot before it, it gives the next one).
 */
export type InspectionEvent =
  | { readonly type: 'turn'; readonly at: number; readonly id: string }
  | { readonly type: 'snapshot'; readonly at: number; readonly snapshot: ChatSnapshot }
  | { readonly type: 'action'; readonly at: number; readonly action: ChatAction }
  | { readonly type: 'request'; readonly at: number; readonly runId: string; readonly input: RunAgentInput }
  | { readonly type: 'event'; readonly at: number; readonly runId: string; readonly event: WireEvent }
  | { readonly type: 'toolCall'; readonly at: number; readonly change: ToolCallChange }
  | { readonly type: 'status'; readonly at: number; readonly from: ChatStatus; readonly to: ChatStatus }
  | { readonly type: 'error'; readonly at: number; readonly error: ChatwireError }
  | { readonly type: 'warning'; readonly at: number; readonly message: string }
  | ({ readonly type: 'app'; readonly at: number } & AppMessage);

/**
 * One message between the page and an MCP App shown in the chat (see `ChatClient.reportAppMessage`):
 * the call whose app it is, its server, which way it went and its JSON-RPC method (`result` or
 * `error` for an answer). Nothing of its content is kept.
 */
export interface AppMessage {
  readonly toolCallId: string;
  readonly server: string;
  readonly direction: 'in' | 'out';
  readonly method: string;
}

/** Receives {@link InspectionEvent}s. */
export type InspectionObserver = (event: InspectionEvent) => void;

/**
 * A typed event stream that costs nothing without observers: producers check {@link active}
 * before building an event.
 */
export class Inspector {
  #observers = new Set<InspectionObserver>();

  /** Whether anyone listens; check before building an event. */
  get active(): boolean {
    return this.#observers.size > 0;
  }

  /** Adds an observer; returns the function that removes it. */
  observe(observer: InspectionObserver): () => void {
    this.#observers.add(observer);
    return () => {
      this.#observers.delete(observer);
    };
  }

  /** Delivers an event; a throwing observer is skipped, never breaks the producer. */
  emit(event: InspectionEvent): void {
    for (const observer of this.#observers) {
      try {
        observer(event);
      } catch {
        // An inspector must never break the chat it inspects.
      }
    }
  }
}

/** Whether this build is a production build (bundlers replace `process.env.NODE_ENV`). */
export function isProductionBuild(): boolean {
  try {
    return process.env.NODE_ENV === 'production';
  } catch {
    return false;
  }
}
