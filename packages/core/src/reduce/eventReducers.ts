import type { ChatState } from '../model/chatState.js';
import { noCallChanges, type Reduction, type WireEventAction } from './chatReducer.js';

/**
 * The table of event reducers. A `wireEvent` action is plain data: it names its reducer (`core`,
 * `extended`, `dataPart`, or an extension's name, see `customEvents.ts`) and carries the event, the
 * clock, the stream id and (a declared data part) the checked part. Each reducer is registered by
 * the code that loads its module (`routeEvent`), before the first action that names it, so the
 * reducers stay in lazy chunks while actions can be logged, replayed and shown in devtools.
 */

/** The reducer an AG-UI event is applied by: the client's own (`core`, `extended`, `dataPart`) or an extension's, by name. */
export type EventReducerKind = 'core' | 'extended' | 'dataPart' | (string & {});

/** A registered reducer: the state and the (plain data) `wireEvent` action. */
export type EventReducer = (state: ChatState, action: WireEventAction) => Reduction;

// An extension's name is never one of Object.prototype's (routeEvent refuses those), so a plain object serves.
const registered: Partial<Record<EventReducerKind, EventReducer>> = {};

/** Registers the reducer of one kind (the first registration stays). */
export function registerEventReducer(kind: EventReducerKind, reduce: EventReducer): void {
  registered[kind] ??= reduce;
}

/** Whether a reducer of this kind is registered. */
export const hasEventReducer = (kind: EventReducerKind): boolean => Object.hasOwn(registered, kind);

/** Applies a `wireEvent` action with the reducer it names (see `reduceChat`); one nobody registered changes nothing. */
export const reduceEvent = (state: ChatState, action: WireEventAction): Reduction =>
  (registered[action.reducer] ?? noCallChanges)(state, action);
