/**
 * The server of `burstTrace.ts`: serverFiguresServer.ts's chat handler and model, with a timestamp at
 * each step of each request (keyed by the client's port), its CPU time and its socket writes counted
 * from `start` (a line on stdin) to the last response's first write (and its CPU time to the last
 * response's end), printed as JSON on `dump`.
 */
import { createServer } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createChatHandler, createScriptedModel, toNodeListener, type ChatModel, type ModelChunk } from '@chatwire/server';

const now = () => performance.timeOrigin + performance.now();
const DELTAS = Number(process.env['BENCH_DELTAS'] ?? 2_000);
const fast: ChatModel = {
  ...createScriptedModel(),
  async *stream(): AsyncIterable<ModelChunk> {
    for (let i = 0; i < DELTAS; i++) yield { type: 'text-delta', delta: `word${i % 10} ` };
    yield { type: 'finish', reason: 'stop' };
  },
};

const trace = new Map<number, Record<string, number>>();
const stamp = (port: number | undefined, key: string) => {
  if (port === undefined) return;
  let stamps = trace.get(port);
  if (!stamps) trace.set(port, (stamps = {}));
  stamps[key] ??= now();
};
let cpuAtStart = process.cpuUsage();
let cpuAtLastFirst = { user: 0, system: 0 };
let cpuAtLastEnd = { user: 0, system: 0 };
let writes = 0;
let writesAtLastFirst = 0;
// Every write to the operating system goes through Writable's `_write`/`_writev` hooks, which net.Socket's `_writeGeneric` serves.
const socketPrototype = Socket.prototype as unknown as { _writeGeneric: (...args: unknown[]) => unknown };
const writeGeneric = socketPrototype._writeGeneric;
socketPrototype._writeGeneric = function (this: Socket, ...args: unknown[]) {
  writes++;
  return writeGeneric.apply(this, args);
};

const handleChat = createChatHandler({ model: fast, secret: 'bench-secret', onError: () => {} });
// The chat handler itself, not wrapped: `toNodeListener` serves a small POST to it without a Fetch
// Request (a wrapper would be a Fetch handler of its own, served through Fetch).
const listener = toNodeListener(handleChat);
const server = createServer((req, res) => {
  const port = req.socket.remotePort;
  stamp(port, 'request');
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  let first = true;
  res.write = ((...args: unknown[]) => {
    if (first) {
      first = false;
      stamp(port, 'firstWrite');
      cpuAtLastFirst = process.cpuUsage(cpuAtStart);
      writesAtLastFirst = writes;
    }
    return write(...args);
  }) as typeof res.write;
  res.once('finish', () => {
    stamp(port, 'end');
    cpuAtLastEnd = process.cpuUsage(cpuAtStart);
  });
  listener(req, res);
});
server.on('connection', (socket: Socket) => stamp(socket.remotePort, 'accept'));
const lag = monitorEventLoopDelay({ resolution: 1 });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text: string) => {
  if (text.includes('start')) {
    trace.clear();
    cpuAtStart = process.cpuUsage();
    writes = 0;
    lag.reset();
    lag.enable();
  }
  if (text.includes('dump')) {
    lag.disable();
    const dump = {
      trace: Object.fromEntries(trace),
      lagMaxMs: lag.max / 1e6,
      cpuUserMs: cpuAtLastFirst.user / 1000,
      cpuSystemMs: cpuAtLastFirst.system / 1000,
      writes: writesAtLastFirst,
      cpuToLastEndMs: (cpuAtLastEnd.user + cpuAtLastEnd.system) / 1000,
    };
    process.stdout.write(`${JSON.stringify(dump)}\n`);
  }
});
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close();
  process.exit(0);
});
