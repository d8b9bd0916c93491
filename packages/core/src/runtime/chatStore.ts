import { reduceChat, type ChatAction, type Reduction, type ToolCallChange } from '../reduce/chatReducer.js';
import type { ChatSnapshot, ChatState } from '../model/chatState.js';
import { describeError } from '../base/errors.js';
import { Inspector } from '../inspection/inspection.js';
import { withFields } from '../reduce/sharedMessages.js';

/** What the store asks of its owner. */
export interface ChatStoreHooks {
  /** Performs the effects of the tool-call changes one dispatch made: the client's only decisions. */
  readonly perform: (changes: readonly ToolCallChange[]) => void;
  /** Reports a development warning (a refused transition, a throwing listener). */
  readonly warn: (message: string) => void;
}

/**
 * The one door every state change goes through: reduce, return early when nothing changed, swap
 * the snapshot, report to inspectors, notify listeners. Holds no other state.
 *
 * A mailbox keeps dispatches apart: an action dispatched while another is being applied (by a
 * listener or an inspector) waits until that one is done, and the effects of the transitions an
 * action made are handed to the owner only after it was applied and every listener saw it, one
 * batch at a time: an effect that dispatches starts a dispatch of its own (applied at once, so the
 * effect reads its outcome), whose effects wait their turn. So no dispatch runs inside another, and
 * every listener sees the snapshots in the order they were made.
 */
export class ChatStore {
  readonly inspector = new Inspector();
  #snapshot: ChatSnapshot;
  readonly #listeners = new Set<() => void>();
  readonly #hooks: ChatStoreHooks;
  /** What waits for the current dispatch (or effect) to be done: actions, and effects to perform. */
  readonly #mailbox: (ChatAction | readonly ToolCallChange[])[] = [];
  /** An action is being applied (reduced, reported, notified). */
  #applying = false;
  /** The mailbox is being emptied (by the dispatch that found it idle). */
  #draining = false;

  constructor(id: string, initial: ChatState, hooks: ChatStoreHooks) {
    this.#snapshot = { ...initial, id };
    this.#hooks = hooks;
  }

  /** Subscribes to snapshot changes; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /** The current snapshot. The same object until something changes. */
  getSnapshot = (): ChatSnapshot => this.#snapshot;

  /**
   * Applies one action, at once unless another is being applied (then right after it); then
   * performs the effects of what was applied, unless an outer dispatch is doing that already.
   */
  dispatch(action: ChatAction): void {
    if (this.#applying) {
      this.#mailbox.push(action);
      return;
    }
    this.#apply(action);
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let next = this.#mailbox.shift(); next !== undefined; next = this.#mailbox.shift()) {
        if (Array.isArray(next)) this.#hooks.perform(next as readonly ToolCallChange[]);
        else this.#apply(next as ChatAction);
      }
    } finally {
      this.#draining = false;
    }
  }

  /** Reduces, swaps, reports and notifies; the effects of the changes go to the mailbox. */
  #apply(action: ChatAction): void {
    this.#applying = true;
    let reduction: Reduction;
    try {
      reduction = this.#reduce(action);
    } finally {
      this.#applying = false;
    }
    if (reduction.changes.some((change) => change.effects.length > 0)) this.#mailbox.push(reduction.changes);
  }

  #reduce(action: ChatAction): Reduction {
    const previous = this.#snapshot;
    const inspecting = this.inspector.active;
    // The action first: an inspector that replays the actions it saw over the snapshot before them gets this chat's snapshots.
    if (inspecting) this.inspector.emit({ type: 'action', at: Date.now(), action });
    const reduction = reduceChat(previous, action);
    for (const change of reduction.changes) {
      if (inspecting) this.inspector.emit({ type: 'toolCall', at: Date.now(), change });
      if (change.refused) this.#hooks.warn(change.refused);
    }
    if (reduction.state !== previous) {
      // The reducers keep the id of the snapshot they were given; messages stay shared (sharedMessages.ts).
      const next = reduction.state as Partial<ChatSnapshot>;
      this.#snapshot = next.id === previous.id ? (next as ChatSnapshot) : withFields(reduction.state as ChatSnapshot, { id: previous.id });
      if (inspecting) {
        if (previous.status !== reduction.state.status) {
          this.inspector.emit({ type: 'status', at: Date.now(), from: previous.status, to: reduction.state.status });
        }
        this.inspector.emit({ type: 'snapshot', at: Date.now(), snapshot: this.#snapshot });
      }
      for (const listener of this.#listeners) {
        try {
          listener();
        } catch (error) {
          this.#hooks.warn(`A chat listener threw: ${describeError(error)}`);
        }
      }
    }
    if (reduction.warning) this.#hooks.warn(reduction.warning);
    return reduction;
  }

  /** Drops every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
