import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { readEvents, user } from '../fixtures.js';
import { registerTestSdk } from './otelTestSdk.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: { key: string; value: OtlpValue }[];
}
interface OtlpRequest {
  resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

/** An OTLP/HTTP receiver on loopback: keeps every decoded JSON export request. */
async function receiver() {
  const received: { path: string; contentType: string; body: OtlpRequest }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest,
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const plain = (value: OtlpValue): unknown =>
  value.stringValue ??
  (value.intValue === undefined ? undefined : Number(value.intValue)) ??
  value.boolValue ??
  value.arrayValue?.values?.map(plain);

describe('OTLP/HTTP export', () => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });

  it("a run's spans arrive at an OTLP/HTTP receiver with their names, parents and attributes", async () => {
    const otlp = await receiver();
    closing.push(otlp.close);
    const sdk = registerTestSdk(new OTLPTraceExporter({ url: `${otlp.url}/v1/traces` }));
    closing.push(sdk.stop);
    const getWeather = toolDefinition({ name: 'getWeather', description: 'Weather.', inputSchema: z.object({ city: z.string() }) }).server(
      async ({ city }) => ({ city }),
    );
    const handler = createChatHandler({ model: createScriptedModel(), tools: [getWeather], secret: 'otlp-secret' });
    const response = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
        body: JSON.stringify({
          threadId: 'thread_otlp',
          runId: 'run_otlp',
          messages: [user('use getWeather {"city":"Lima"}')],
          tools: [],
          context: [],
        }),
      }),
    );
    await readEvents(response);
    await sdk.provider.forceFlush();

    expect(otlp.received.length).toBeGreaterThan(0);
    expect(otlp.received.every((request) => request.path === '/v1/traces')).toBe(true);
    expect(otlp.received[0]!.contentType).toContain('application/json');
    const spans = otlp.received.flatMap((request) =>
      request.body.resourceSpans.flatMap((resource) =>
        resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ ...span, scope: scope.scope.name }))),
      ),
    );
    const attributes = (span: OtlpSpan) => Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, plain(value)]));
    const root = spans.find((span) => span.name === 'invoke_agent chatwire');
    expect(root).toBeDefined();
    expect(root!.scope).toBe('@chatwire/server');
    expect(root!.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(root!.parentSpanId).toBe('b7ad6b7169203331');
    expect(attributes(root!)).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': 'thread_otlp' });
    const chats = spans.filter((span) => span.name.startsWith('chat '));
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.parentSpanId).toBe(root!.spanId);
      expect(attributes(chat)['chatwire.tools.sent']).toEqual(['getWeather']);
      expect(attributes(chat)['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    }
    const tool = spans.find((span) => span.name === 'execute_tool getWeather');
    expect(tool?.parentSpanId).toBe(root!.spanId);
    expect(attributes(tool!)).toMatchObject({ 'gen_ai.tool.name': 'getWeather', 'chatwire.tool.outcome': 'success' });
  });
});
