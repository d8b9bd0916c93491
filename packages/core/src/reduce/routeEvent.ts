import type { DataPart } from '../model/messages.js';
import { CODE_MODE_EVENT_PREFIX } from '../protocol/codeModeProtocol.js';
import { TOOL_PROGRESS_EVENT } from '../protocol/chatwireProtocol.js';
import { trackActiveRun } from './activeRun.js';
import { readDataPart, reduceDataPart, type DataPartSchemas } from './dataParts.js';
import { registerEventReducer, type EventReducerKind } from './eventReducers.js';
import { reduceWireEvent } from './reduceWireEvent.js';

/**
 * Which reducer applies an AG-UI event, and the loading and registering of the reducers (see
 * `eventReducers.ts`). Part of the stream reader's lazy chunk: the core reducer registers with it;
 * the extended one (and Code Mode's) the first time such an event arrives; the data-part reducer
 * the first time a declared event does. Every registered reducer keeps resumable streams'
 * bookkeeping (`trackActiveRun`).
 */

/**
 * Events outside the core chat path, reduced by the `reduceExtendedEvent` module (loaded on first
 * use); Code Mode's CUSTOM events (`chatwire.code_mode.*`) go there too.
 */
const EXTENDED = /^(?:REASONING_|THINKING_|STATE_|ACTIVITY_|MESSAGES_SNAPSHOT$|SUBAGENT_)/;
let extensions: Promise<void> | undefined;

/**
 * How one event is applied: by the core reducer, the extended one (loading and registering it the
 * first time), or for a `CUSTOM` event whose name `dataParts` declares, as a checked data part
 * (when the value is valid; else `warn` says why it was dropped, and the core reducer takes the
 * event). Resolves what the `wireEvent` action carries besides the event.
 */
export async function routeEvent(
  event: { readonly type: string; readonly name?: string; readonly value?: unknown },
  dataParts?: DataPartSchemas,
  warn?: (message: string) => void,
): Promise<{ readonly reducer: EventReducerKind; readonly dataPart?: DataPart }> {
  registerEventReducer(
    'core',
    trackActiveRun((state, action) => reduceWireEvent(state, action.event, action.now)),
  );
  const { type, name } = event;
  // Tool progress is a data part every chat keeps, declared or not (the app's own schema wins).
  const schema =
    type === 'CUSTOM' && name !== undefined
      ? dataParts && Object.hasOwn(dataParts, name)
        ? dataParts[name]
        : name === TOOL_PROGRESS_EVENT || undefined
      : undefined;
  if (schema) {
    const read = await readDataPart(name as string, event.value, schema as true);
    if ('part' in read) {
      registerEventReducer('dataPart', trackActiveRun(reduceDataPart));
      return { reducer: 'dataPart', dataPart: read.part };
    }
    warn?.(read.warning);
  }
  if (!EXTENDED.test(type) && !(type === 'CUSTOM' && name?.startsWith(CODE_MODE_EVENT_PREFIX))) return { reducer: 'core' };
  await (extensions ??= import('./reduceExtendedEvent.js').then(({ reduceExtendedEvent }) =>
    registerEventReducer(
      'extended',
      trackActiveRun((state, action) => reduceExtendedEvent(state, action.event, action.now)),
    ),
  ));
  return { reducer: 'extended' };
}
