import type { DataPart } from '../model/messages.js';
import { MCP_APP_EVENT, TOOL_PROGRESS_EVENT } from '../protocol/chatwireProtocol.js';
import { trackActiveRun } from './activeRun.js';
import { extensionReducer, RESERVED_REDUCERS, type CustomEventExtension } from './customEvents.js';
import { readDataPart, reduceDataPart, type DataPartSchemas } from './dataParts.js';
import { hasEventReducer, registerEventReducer, type EventReducerKind } from './eventReducers.js';
import { reduceWireEvent } from './reduceWireEvent.js';
import type { JsonPatchApplier } from './applyJsonPatch.js';

/**
 * Which reducer applies an AG-UI event, and the loading and registering of the reducers (see
 * `eventReducers.ts`). Part of the stream reader's lazy chunk: the core reducer registers with it;
 * the extended one the first time such an event arrives, and its JSON Patch (`applyJsonPatch`, a
 * chunk of its own with the patch library) the first time a `STATE_DELTA` or `ACTIVITY_DELTA` does;
 * the data-part reducer the first time a
 * declared event does; an extension's (the client's `customEvents`) when a run of a client that
 * lists it starts. Every registered reducer keeps resumable streams'
 * bookkeeping (`trackActiveRun`).
 */

/** Events outside the core chat path, reduced by the `reduceExtendedEvent` module (loaded on first use). */
const EXTENDED = /^(?:REASONING_|THINKING_|STATE_|ACTIVITY_|MESSAGES_SNAPSHOT$|SUBAGENT_)/;
let extensions: Promise<void> | undefined;
let extensionsLoaded = false;
/** The events that carry a JSON Patch: the extended reducer applies them once `applyJsonPatch` has loaded. */
const DELTAS = new Set(['STATE_DELTA', 'ACTIVITY_DELTA']);
let patches: Promise<void> | undefined;
let patch: JsonPatchApplier | undefined;

/** Where an event goes: the reducer that applies it, and the checked data part it adds, if any. */
type Route = { readonly reducer: EventReducerKind; readonly dataPart?: DataPart };
const CORE: Route = { reducer: 'core' };
const EXTENDED_ROUTE: Route = { reducer: 'extended' };
const coreReducer = trackActiveRun((state, action) => reduceWireEvent(state, action.event, action.now));

/** The client's options that route events: its declared data parts and its extensions. */
export interface EventRouting {
  readonly dataParts?: DataPartSchemas | undefined;
  readonly customEvents?: readonly CustomEventExtension[] | undefined;
}

/**
 * How one event is applied: by the core reducer, the extended one (loading and registering it the
 * first time), for a `CUSTOM` event whose name `dataParts` declares, as a checked data part
 * (when the value is valid; else `warn` says why it was dropped, and the core reducer takes the
 * event), or for one whose name starts with an extension's prefix (`customEvents`), by that
 * extension's reducer (loaded and registered when a run starts, or by its first event). Returns what the `wireEvent` action carries besides the event: at once for the events of
 * the core path and whenever nothing is left to load or check (no promise per text or argument
 * delta), else a promise of it.
 */
export function routeEvent(
  event: { readonly type: string; readonly name?: string; readonly value?: unknown },
  routing?: EventRouting,
  warn?: (message: string) => void,
): Route | Promise<Route> {
  registerEventReducer('core', coreReducer);
  const { type } = event;
  if (type === 'TEXT_MESSAGE_CONTENT' || type === 'TOOL_CALL_ARGS') return CORE;
  // Extensions load while the run is under way, so that their first event waits for nothing (a failed load is tried again then).
  if (type === 'RUN_STARTED') for (const extension of routing?.customEvents ?? []) void routeToExtension(extension, undefined);
  if (DELTAS.has(type) && !patch) return loadExtended(true);
  if (type !== 'CUSTOM') return !EXTENDED.test(type) ? CORE : extensionsLoaded ? EXTENDED_ROUTE : loadExtended();
  return routeCustom(event, routing, warn);
}

function routeCustom(
  event: { readonly type: string; readonly name?: string; readonly value?: unknown },
  routing: EventRouting | undefined,
  warn: ((message: string) => void) | undefined,
): Route | Promise<Route> {
  const { type, name } = event;
  const dataParts = routing?.dataParts;
  // Tool progress and MCP Apps are data parts every chat keeps, declared or not (the app's own schema wins).
  const schema =
    type === 'CUSTOM' && name !== undefined
      ? dataParts && Object.hasOwn(dataParts, name)
        ? dataParts[name]
        : name === TOOL_PROGRESS_EVENT || name === MCP_APP_EVENT || undefined
      : undefined;
  const unchecked = (): Route | Promise<Route> => {
    const extension = name === undefined ? undefined : routing?.customEvents?.find((each) => name.startsWith(each.prefix));
    return extension ? routeToExtension(extension, warn) : CORE;
  };
  if (!schema) return unchecked();
  return readDataPart(name as string, event.value, schema as true).then((read) => {
    if ('part' in read) {
      registerEventReducer('dataPart', trackActiveRun(reduceDataPart));
      return { reducer: 'dataPart', dataPart: read.part };
    }
    warn?.(read.warning);
    return unchecked();
  });
}

/**
 * Registers the client's own reducers among `kinds` (`core`, `extended`, loading it and its JSON Patch, `dataPart`),
 * so that recorded `wireEvent` actions naming them can be replayed in a page whose chat never read a
 * stream (an opened record). Returns the kinds still unregistered: extensions this page never loaded.
 *
 * @example
 * ```ts
 * const missing = await loadEventReducers(['core', 'codeMode']); // ['codeMode'] unless the app loaded it
 * ```
 */
export async function loadEventReducers(kinds: Iterable<EventReducerKind>): Promise<EventReducerKind[]> {
  const wanted = new Set(kinds);
  registerEventReducer('core', coreReducer);
  if (wanted.has('dataPart')) registerEventReducer('dataPart', trackActiveRun(reduceDataPart));
  if (wanted.has('extended')) await loadExtended(true);
  return [...wanted].filter((kind) => !hasEventReducer(kind));
}

/** Loads and registers the extended reducer (once), with its JSON Patch when `withPatch` (once), then routes to it. */
async function loadExtended(withPatch = false): Promise<Route> {
  const loading = (extensions ??= import('./reduceExtendedEvent.js').then(({ reduceExtendedEvent }) => {
    registerEventReducer(
      'extended',
      trackActiveRun((state, action) => reduceExtendedEvent(state, action.event, action.now, patch)),
    );
    extensionsLoaded = true;
  }));
  const patching = withPatch
    ? (patches ??= import('./applyJsonPatch.js').then(({ applyJsonPatch }) => {
        patch = applyJsonPatch;
      }))
    : undefined;
  await Promise.all([loading, patching]);
  return EXTENDED_ROUTE;
}

const extensionRoutes = new Map<string, Route>();
const extensionLoads = new Map<string, Promise<Route>>();

/**
 * Routes to an extension's reducer: at once when it is registered, else after loading and
 * registering it (once per name). A reserved name, or a loader that fails, routes to the core
 * reducer (which ignores the event) and says why.
 */
function routeToExtension(extension: CustomEventExtension, warn: ((message: string) => void) | undefined): Route | Promise<Route> {
  const { name } = extension;
  const known = extensionRoutes.get(name);
  if (known) return known;
  if (RESERVED_REDUCERS.has(name) || name in Object.prototype) {
    warn?.(`The custom event extension '${name}' has a reserved name: its events are ignored.`);
    return CORE;
  }
  let loading = extensionLoads.get(name);
  if (!loading) {
    loading = extension.load().then(
      (reduce) => {
        registerEventReducer(name, trackActiveRun(extensionReducer(name, reduce)));
        const route: Route = { reducer: name };
        extensionRoutes.set(name, route);
        return route;
      },
      (error: unknown) => {
        extensionLoads.delete(name);
        warn?.(
          `The custom event extension '${name}' did not load (${error instanceof Error ? error.message : String(error)}): its event is ignored.`,
        );
        return CORE;
      },
    );
    extensionLoads.set(name, loading);
  }
  return loading;
}
