import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseEvent, RunAgentInput } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { ChatClient, fetchServerSentEvents, type ChatClientOptions } from '@chatwire/core';

/** What a script answers for one request: the events of the response, in order. */
export type Script = (input: RunAgentInput, request: number) => readonly Record<string, unknown>[];

/**
 * A plain AG-UI 1.0 server over node:http on loopback, written with @ag-ui/encoder (the protocol's
 * own encoder): every POST is answered with the events `script` returns for it. It knows nothing of
 * Chatwire. `close()` stops it.
 */
export async function startAgUiServer(script: Script) {
  const inputs: RunAgentInput[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const input = JSON.parse(body) as RunAgentInput;
      inputs.push(input);
      const encoder = new EventEncoder({ accept: request.headers.accept ?? 'text/event-stream' });
      response.writeHead(200, { 'content-type': encoder.getContentType(), 'cache-control': 'no-cache' });
      for (const event of script(input, inputs.length - 1)) response.write(encoder.encode(event as unknown as BaseEvent));
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  return {
    url,
    inputs,
    client: (options: Partial<ChatClientOptions> = {}) =>
      new ChatClient({ connection: fetchServerSentEvents(url), onWarning: () => {}, ...options }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Events of one run around `body`. */
export const runOf = (input: RunAgentInput, body: readonly Record<string, unknown>[], outcome?: Record<string, unknown>) => [
  { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId },
  ...body,
  { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId, ...(outcome ? { outcome } : {}) },
];

/** A streamed text message. */
export const textOf = (messageId: string, text: string, extra: Record<string, unknown> = {}) => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant', ...extra },
  { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: text, ...extra },
  { type: 'TEXT_MESSAGE_END', messageId, ...extra },
];

/** A tool call with its arguments. */
export const callOf = (toolCallId: string, name: string, args: unknown, parentMessageId = 'a1') => [
  { type: 'TOOL_CALL_START', toolCallId, toolCallName: name, parentMessageId },
  { type: 'TOOL_CALL_ARGS', toolCallId, delta: JSON.stringify(args) },
  { type: 'TOOL_CALL_END', toolCallId },
];
