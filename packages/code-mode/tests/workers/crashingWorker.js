// A worker that dies on its first run (an uncaught error in the worker thread).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (message) => {
  if (message.type === 'run') throw new Error('worker crashed');
});
