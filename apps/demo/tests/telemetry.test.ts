import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { trace } from '@opentelemetry/api';
import { readServerSentEvents } from '@chatwire/core/wire';
import { createMemoryThreadStore } from '@chatwire/server';
import { createDemoRoutes } from '../server/routes.ts';
import { startDemoTelemetry } from '../server/telemetry.ts';

/** An OTLP/HTTP receiver on loopback that keeps each request's path and decoded JSON body. */
async function receiver() {
  const received: { path: string; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${port}`, received, close };
}

describe('the demo exports OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set', () => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });

  it('without the variable nothing is set up: no exporter, no registered SDK', async () => {
    expect(await startDemoTelemetry({})).toBeUndefined();
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
  });

  it("with it, a chat's spans and metrics reach the endpoint over OTLP/HTTP", async () => {
    const otlp = await receiver();
    closing.push(otlp.close);
    const telemetry = await startDemoTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: `${otlp.url}/`, OTEL_SERVICE_NAME: 'demo-under-test' });
    expect(telemetry?.endpoint).toBe(`${otlp.url}/v1/traces`);
    // Threads in memory: the test must not write into the demo's own PGlite folder.
    const routes = createDemoRoutes({ delayMs: 1, threads: createMemoryThreadStore() });
    const response = (await routes(
      new Request('http://demo.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          threadId: 'demo_otel',
          runId: 'run_otel',
          messages: [{ id: 'u1', role: 'user', content: 'What is the weather in Paris?' }],
          tools: [],
          context: [],
        }),
      }),
    )) as Response;
    for await (const data of readServerSentEvents(response.body as ReadableStream<Uint8Array>)) void data;
    await telemetry!.shutdown();

    const traces = otlp.received.filter((request) => request.path === '/v1/traces').map((request) => request.body);
    expect(traces.length).toBeGreaterThan(0);
    const spans = traces.join('\n');
    expect(spans).toContain('"invoke_agent chatwire"');
    expect(spans).toContain('"demo-under-test"');
    expect(spans).toMatch(/"name":"chat /);
    expect(spans).toContain('"demo_otel"');
    const metrics = otlp.received.filter((request) => request.path === '/v1/metrics').map((request) => request.body);
    expect(metrics.join('\n')).toContain('gen_ai.client.operation.duration');
  });
});
