/**
 * What `toNodeListener`'s lean path saves per request: the same chat handler served two ways in one
 * process, alternating: given as it is (a small POST takes the lean path: no Fetch `Request`, body
 * stream, signal or `Response`), and wrapped in a function of its own (a Fetch handler like any
 * other: the Fetch path). Each request is a whole run of one text delta, sent one after another on a
 * kept-alive connection with node:http; the figure is the process's CPU time (client and server
 * together: the client's share is the same on both sides) per request, median over rounds.
 *
 * `node --conditions=@chatwire/source --import tsx packages/server/bench/nodePathCost.ts`.
 * Environment: N (requests per round, default 400), ROUNDS (default 6; the first is not counted).
 */
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChatHandler, createScriptedModel, toNodeListener, type ChatModel, type ModelChunk } from '@chatwire/server';

const oneDelta: ChatModel = {
  ...createScriptedModel(),
  async *stream(): AsyncIterable<ModelChunk> {
    yield { type: 'text-delta', delta: 'hi' };
    yield { type: 'finish', reason: 'stop' };
  },
};
const handleChat = createChatHandler({ model: oneDelta, secret: 'bench-secret', onError: () => {} });
const servers = {
  lean: createServer(toNodeListener(handleChat)),
  fetch: createServer(toNodeListener((request: Request) => handleChat(request))),
};
const ports: Record<string, number> = {};
for (const [name, server] of Object.entries(servers))
  ports[name] = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One run: its request written, its whole answer read; rejects unless it finished. */
const post = (port: number, i: number) =>
  new Promise<void>((resolve, reject) => {
    const body = JSON.stringify({
      threadId: `t${i}`,
      runId: `r${i}`,
      messages: [{ id: `u${i}`, role: 'user', content: 'hello' }],
      tools: [],
      context: [],
    });
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/api/chat',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.once('end', () =>
          text.includes('RUN_FINISHED') ? resolve() : reject(new Error(`a run did not finish (${response.statusCode})`)),
        );
      },
    );
    request.once('error', reject);
    request.end(body);
  });

const requests = Number(process.env['N'] ?? 400);
const rounds = Number(process.env['ROUNDS'] ?? 6);
const perRequest: Record<string, number[]> = { lean: [], fetch: [] };
for (let round = 0; round < rounds; round++)
  for (const name of ['lean', 'fetch']) {
    const port = ports[name] as number;
    for (let i = 0; i < 50; i++) await post(port, i);
    const cpu = process.cpuUsage();
    for (let i = 0; i < requests; i++) await post(port, i);
    const used = process.cpuUsage(cpu);
    // The first round warms both paths: not a figure.
    if (round > 0) perRequest[name]?.push((used.user + used.system) / 1000 / requests);
  }
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number;
const ms = (value: number) => Math.round(value * 1000) / 1000;
process.stdout.write(
  `${JSON.stringify({
    requestsPerRound: requests,
    cpuMsPerRequest: { lean: ms(median(perRequest['lean'] ?? [])), fetch: ms(median(perRequest['fetch'] ?? [])) },
    rounds: { lean: (perRequest['lean'] ?? []).map(ms), fetch: (perRequest['fetch'] ?? []).map(ms) },
  })}\n`,
);
for (const server of Object.values(servers)) server.close();
agent.destroy();
