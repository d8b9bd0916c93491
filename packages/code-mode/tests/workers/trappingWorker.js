// A worker that reports an engine trap, as the real worker does after a WebAssembly failure.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (message) => {
  if (message.type !== 'run') return;
  parentPort.postMessage({
    type: 'done',
    seq: message.seq,
    trapped: true,
    outcome: { ok: false, error: { code: 'sandbox', name: 'SandboxError', message: 'trap' }, droppedLogLines: 0 },
  });
});
