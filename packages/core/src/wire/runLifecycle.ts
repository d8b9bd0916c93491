import type { WireEventReducer } from '../store/chatReducer.js';
import { ChatwireError } from '../errors.js';
import { reduceWireEvent } from './reduceWireEvent.js';
import { readDataPart, type DataPartSchemas } from './dataParts.js';
import { CODE_MODE_EVENT_PREFIX } from './codeModeProtocol.js';
import { TOOL_PROGRESS_EVENT } from './protocol.js';

/** Where the stream is in AG-UI's run lifecycle. */
export type Phase = 'before' | 'running' | 'finished' | 'failed';

/**
 * AG-UI 1.0's run lifecycle: a stream begins with RUN_STARTED (or RUN_ERROR); RUN_FINISHED or
 * RUN_ERROR closes a run; after that only a new RUN_STARTED (another run in the same stream) or a
 * late RUN_ERROR may follow. Anything else is a protocol error the user sees, never a silent hang.
 */
export function nextPhase(phase: Phase, type: string): Phase {
  if (type === 'RUN_ERROR') return 'failed';
  if (type === 'RUN_STARTED') {
    if (phase !== 'running') return 'running';
    throw new ChatwireError('protocol-error', 'The server started a run while the previous one was still running (RUN_STARTED before RUN_FINISHED).');
  }
  if (phase === 'running') return type === 'RUN_FINISHED' ? 'finished' : 'running';
  if (phase === 'before') throw new ChatwireError('protocol-error', `The server's stream began with ${type}: an AG-UI stream begins with RUN_STARTED.`);
  throw new ChatwireError(
    'protocol-error',
    `The server sent ${type} after the run ${phase === 'finished' ? 'finished (RUN_FINISHED)' : 'failed (RUN_ERROR)'}: only a new RUN_STARTED may follow, so the rest of the response was not read.`,
  );
}

/**
 * Events outside the core chat path, reduced by the `protocolExtensions` module (loaded on first
 * use); Code Mode's CUSTOM events (`chatwire.code_mode.*`) go there too.
 */
const EXTENDED = /^(?:REASONING_|THINKING_|STATE_|ACTIVITY_|MESSAGES_SNAPSHOT$|SUBAGENT_)/;
let extensions: Promise<typeof import('./protocolExtensions.js')> | undefined;

/**
 * The reducer for one event: the core one, the extended one (loading it the first time), or for a
 * `CUSTOM` event whose name `dataParts` declares, the one that adds its data part (when the value is
 * valid; else `warn` says why it was dropped, and the core reducer takes the event).
 */
export async function reducerFor(
  event: { readonly type: string; readonly name?: string; readonly value?: unknown },
  dataParts?: DataPartSchemas,
  warn?: (message: string) => void,
): Promise<WireEventReducer> {
  const { type, name } = event;
  // Tool progress is a data part every chat keeps, declared or not (the app's own schema wins).
  const schema = type === 'CUSTOM' && name !== undefined ? (dataParts && Object.hasOwn(dataParts, name) ? dataParts[name] : name === TOOL_PROGRESS_EVENT || undefined) : undefined;
  if (schema) {
    const read = await readDataPart(name as string, event.value, schema as true);
    if ('reduce' in read) return read.reduce;
    warn?.(read.warning);
  }
  if (!EXTENDED.test(type) && !(type === 'CUSTOM' && name?.startsWith(CODE_MODE_EVENT_PREFIX))) return reduceWireEvent;
  return (await (extensions ??= import('./protocolExtensions.js'))).reduceExtendedEvent;
}

