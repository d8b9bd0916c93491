// A worker that never answers and never yields once a run starts: the pool must terminate it.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (message) => {
  if (message.type === 'run') for (;;);
});
