import { findToolCall, noCallChanges, type Reduction, type WireEventAction } from './chatReducer.js';
import type { ChatState } from '../model/chatState.js';
import type { ChatMessage } from '../model/messages.js';
import type { ToolCallPart } from '../lifecycle/toolCallLifecycle.js';

/*
 * The extension point for the CUSTOM events an extension owns: an app lists the extensions it uses
 * in the client's `customEvents` option as plain data (a name, the prefix of its event names, a
 * loader). The client's first run (or else the first event whose name starts with the prefix)
 * loads the extension's reducer and registers it under the extension's name (routeEvent.ts); from then on `wireEvent` actions name it
 * like any other reducer and carry only the event. What the reducer builds lands on the tool call
 * the event is about, as `part.extensions[name]`.
 */

/**
 * An extension of the stream, as an app turns it on (`customEvents`): plain data plus a loader.
 *
 * @example
 * ```ts
 * const progressBars: CustomEventExtension = {
 *   name: 'progressBars',
 *   prefix: 'acme.progress.',
 *   load: () => import('./reduceProgress.js').then((module) => module.reduceProgress),
 * };
 * new ChatClient({ connection, customEvents: [progressBars] });
 * ```
 */
export interface CustomEventExtension {
  /**
   * Its name: the key of its state in a tool-call part's `extensions`, and the reducer its events'
   * `wireEvent` actions name. One name is one reducer for the whole page (the first one loaded
   * stays); `core`, `extended` and `dataPart` are the client's own.
   */
  readonly name: string;
  /** The `CUSTOM` event names it takes: those that start with this (for example `acme.progress.`). */
  readonly prefix: string;
  /** Loads its reducer, typically with a dynamic `import()` so that the initial load never carries it. */
  readonly load: () => Promise<CustomEventReducer>;
}

/**
 * What one event did: the tool call it is about and the extension's next state on it, a
 * `warning` when the event is ignored (a malformed value, an unknown call), or `undefined` when
 * nothing changed.
 */
export type CustomEventOutcome = { readonly toolCallId: string; readonly state: unknown } | { readonly warning: string } | undefined;

/**
 * Folds one `CUSTOM` event into the state an extension keeps on the tool call the event is about.
 * `callOf(toolCallId)` finds a call of this chat (its `extensions` hold the current state). Pure:
 * it returns the next state and never changes the part itself.
 */
export type CustomEventReducer = (
  event: { readonly name: string; readonly value: unknown },
  callOf: (toolCallId: string) => ToolCallPart | undefined,
) => CustomEventOutcome;

/** The names of the client's own reducers, which no extension can take. */
export const RESERVED_REDUCERS: ReadonlySet<string> = new Set(['core', 'extended', 'dataPart']);

/** The chat reducer of one extension: puts what its reducer returns on the call's `extensions[name]`. */
export function extensionReducer(name: string, reduce: CustomEventReducer): (state: ChatState, action: WireEventAction) => Reduction {
  return (state, action) => {
    const event = action.event as { readonly name?: unknown; readonly value?: unknown };
    let found: ReturnType<typeof findToolCall>;
    const callOf = (toolCallId: string) => (found = findToolCall(state.messages, (call) => call.toolCallId === toolCallId))?.call;
    const outcome = reduce({ name: String(event.name), value: event.value }, callOf);
    if (outcome === undefined) return noCallChanges(state);
    if ('warning' in outcome) return { state, changes: [], warning: outcome.warning };
    const at =
      found?.call.toolCallId === outcome.toolCallId
        ? found
        : findToolCall(state.messages, (call) => call.toolCallId === outcome.toolCallId);
    if (!at)
      return {
        state,
        changes: [],
        warning: `A '${String(event.name)}' event names no tool call of this chat ('${outcome.toolCallId}'): ignored.`,
      };
    const { call, messageIndex, partIndex } = at;
    if (call.extensions?.[name] === outcome.state) return noCallChanges(state);
    const message = state.messages[messageIndex] as ChatMessage;
    const parts = message.parts.slice();
    parts[partIndex] = { ...call, extensions: { ...call.extensions, [name]: outcome.state } };
    const messages = state.messages.slice();
    messages[messageIndex] = { ...message, parts };
    return noCallChanges({ ...state, messages });
  };
}
