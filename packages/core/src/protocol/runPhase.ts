import { ChatwireError } from '../base/errors.js';

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
    throw new ChatwireError(
      'protocol-error',
      'The server started a run while the previous one was still running (RUN_STARTED before RUN_FINISHED).',
    );
  }
  if (phase === 'running') return type === 'RUN_FINISHED' ? 'finished' : 'running';
  if (phase === 'before')
    throw new ChatwireError('protocol-error', `The server's stream began with ${type}: an AG-UI stream begins with RUN_STARTED.`);
  throw new ChatwireError(
    'protocol-error',
    `The server sent ${type} after the run ${phase === 'finished' ? 'finished (RUN_FINISHED)' : 'failed (RUN_ERROR)'}: only a new RUN_STARTED may follow, so the rest of the response was not read.`,
  );
}
