import { request as httpRequest, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { readEvents, runInput, serve, user } from './fixtures.js';

/**
 * Sends raw bytes to the server and reads until it closes the connection, or until `complete(received)` holds (for an
 * answer the server gives while it keeps the connection open). No clock: a slow machine only takes longer.
 */
function rawRequest(url: string, text: string, complete: (received: string) => boolean = () => false): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (complete(received)) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('error', (error) => {
      if (received) resolve(received);
      else reject(error);
    });
    socket.on('close', () => resolve(received));
    socket.write(text, 'latin1');
  });
}

/** Whether `received` holds one whole HTTP response (its head and as many body bytes as its Content-Length says). */
function wholeResponse(received: string): boolean {
  const end = received.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length: (\d+)/i.exec(received.slice(0, end));
  return end >= 0 && length !== null && received.length - end - 4 >= Number(length[1]);
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);

describe('toNodeListener with malformed HTTP', () => {
  it('answers every request it cannot parse with 400 and keeps serving', async () => {
    const server = await serve(createChatHandler({ model: createScriptedModel() }));
    try {
      const malformed = [
        'GET // HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        'GET /api/chat HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n',
        'GET /api/chat HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n',
        'TRACE / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        'TRACK / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        'GET /x HTTP/1.1\r\nHost: user@evil.example\r\nConnection: close\r\n\r\n',
        'GET /x HTTP/1.1\r\nHost: evil.example/path\r\nConnection: close\r\n\r\n',
        'GET * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        'GET /%zz HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n',
      ];
      for (const text of malformed) {
        const response = await rawRequest(server.url, text);
        // node's own parser answers some of these with 400 before the listener sees them; either way a 400.
        expect(statusOf(response), text).toBe(400);
      }
      // `POST //evil.example/api/chat` is refused, never read as a request "to" evil.example.
      const doubleSlash = await rawRequest(
        server.url,
        'POST //evil.example/api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      );
      expect(statusOf(doubleSlash)).toBe(400);

      const ok = await fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput([user('still there?')])),
      });
      expect(ok.status).toBe(200);
      expect((await readEvents(ok)).at(-1)?.type).toBe('RUN_FINISHED');
    } finally {
      await server.close();
    }
  });

  it('refuses an oversized body with 413 before reading it: by Content-Length, and while it streams', async () => {
    const server = await serve(createChatHandler({ model: createScriptedModel(), limits: { maxBodyBytes: 64 * 1024 } }));
    try {
      // Declares 200 MB and sends only the first bytes: the answer comes at once, without waiting for the rest.
      const declared = await rawRequest(
        server.url,
        'POST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 209715200\r\n\r\n{"threadId":',
        wholeResponse,
      );
      expect(statusOf(declared)).toBe(413);
      expect(declared).toMatch(/body-too-large/);

      // Chunked, no length: refused as soon as it passes the limit while the client goes on sending
      // (1 MiB). The client can finish its upload and read the 413 (closing at once would reset it
      // mid-write: EPIPE, no answer), and the same connection then serves its next request.
      const chunk = 'x'.repeat(16 * 1024);
      let chunked = 'POST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      for (let i = 0; i < 64; i++) chunked += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
      const next = JSON.stringify(runInput([user('after the refused upload')]));
      chunked += `0\r\n\r\nPOST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${next.length}\r\nConnection: close\r\n\r\n${next}`;
      const streamed = await rawRequest(server.url, chunked);
      expect(statusOf(streamed)).toBe(413);
      expect(streamed).toMatch(/body-too-large/);
      const second = streamed.slice(streamed.indexOf('HTTP/1.1', 12));
      expect(statusOf(second)).toBe(200);
      expect(second).toContain('RUN_FINISHED');

      const ok = await fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput([user('hello')])),
      });
      expect(ok.status).toBe(200);
      await readEvents(ok);
    } finally {
      await server.close();
    }
  });

  it('refuses an oversized id mid-upload with 400 invalid-id: the client reads the answer and the connection serves its next request', async () => {
    let started = 0;
    const handleChat = createChatHandler({ model: createScriptedModel() });
    const server = await serve((request) => {
      started++;
      return handleChat(request);
    });
    try {
      // A 1 MiB run id, chunked: refused at its first chunk, the rest read and thrown away.
      const upload = JSON.stringify(runInput([user('hi')], { runId: 'i'.repeat(1024 * 1024) }));
      let chunked = 'POST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      for (let at = 0; at < upload.length; at += 16 * 1024) {
        const piece = upload.slice(at, at + 16 * 1024);
        chunked += `${piece.length.toString(16)}\r\n${piece}\r\n`;
      }
      const next = JSON.stringify(runInput([user('after the refused id')]));
      chunked += `0\r\n\r\nPOST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${next.length}\r\nConnection: close\r\n\r\n${next}`;
      const answer = await rawRequest(server.url, chunked);
      expect(statusOf(answer)).toBe(400);
      expect(answer).toMatch(/"code":"invalid-id"/);
      expect(answer).toMatch(/runId/);
      expect(answer).not.toContain('iiiiiiii');
      const second = answer.slice(answer.indexOf('HTTP/1.1', 12));
      expect(statusOf(second)).toBe(200);
      expect(second).toContain('RUN_FINISHED');
      expect(started).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('ends the body with an error when the client leaves mid-upload, instead of leaving the handler waiting', async () => {
    let reading!: () => void;
    const handlerReads = new Promise<void>((resolve) => (reading = resolve));
    let settled!: (outcome: string) => void;
    const outcome = new Promise<string>((resolve) => (settled = resolve));
    const server = await serve(async (request) => {
      reading();
      try {
        await request.text();
        settled('read');
      } catch {
        settled('failed');
      }
      return new Response('done');
    });
    try {
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1');
      socket.write(
        'POST /anything HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"threadId":',
      );
      // The client leaves once the handler is reading its body (not after a fixed time the server may not have had).
      await handlerReads;
      socket.destroy();
      expect(await outcome).toBe('failed');
    } finally {
      await server.close();
    }
  });
});

/** What each connection of `server` handed to the operating system, one entry per write (Writable's `_write`/`_writev`). */
function recordWrites(server: Server): string[][] {
  const connections: string[][] = [];
  server.on('connection', (socket: Socket) => {
    const writes: string[] = [];
    connections.push(writes);
    const text = (chunk: unknown) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('latin1'));
    const write = socket._write.bind(socket);
    const writev = socket._writev?.bind(socket);
    socket._write = (chunk, encoding, callback) => {
      writes.push(text(chunk));
      write(chunk, encoding, callback);
    };
    if (writev)
      socket._writev = (chunks, callback) => {
        writes.push(chunks.map(({ chunk }) => text(chunk)).join(''));
        writev(chunks, callback);
      };
  });
  return connections;
}

describe('toNodeListener writes', () => {
  it("sends an event stream's headers and its first event in one write", async () => {
    const server = await serve(createChatHandler({ model: createScriptedModel() }));
    const connections = recordWrites(server.server);
    try {
      const response = await fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput([user('hello')])),
      });
      const events = await readEvents(response);
      expect(events[0]?.type).toBe('RUN_STARTED');
      const first = connections[0]?.[0] ?? '';
      expect(first.startsWith('HTTP/1.1 200')).toBe(true);
      expect(first).toContain('"type":"RUN_STARTED"');
    } finally {
      await server.close();
    }
  });

  it('sends the headers alone when the body has nothing yet: the status is not held back until the first chunk', async () => {
    let headersArrived = () => {};
    const arrived = new Promise<void>((resolve) => (headersArrived = resolve));
    // The body's first chunk waits for the client to have the headers: holding them back would never end.
    const handler = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          async start(controller) {
            await arrived;
            controller.enqueue(new TextEncoder().encode('data: {"type":"RUN_STARTED"}\n\n'));
            controller.close();
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const server = await serve(handler);
    const connections = recordWrites(server.server);
    try {
      const { port } = new URL(server.url);
      const body = await new Promise<string>((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port: Number(port), path: '/api/chat', method: 'POST', agent: false },
          (response) => {
            expect(response.statusCode).toBe(200);
            headersArrived();
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.once('end', () => resolve(text));
          },
        );
        request.once('error', reject);
        request.end('{}');
      });
      expect(body).toContain('RUN_STARTED');
      expect(connections[0]?.[0]?.startsWith('HTTP/1.1 200')).toBe(true);
      expect(connections[0]?.[0]).not.toContain('RUN_STARTED');
    } finally {
      await server.close();
    }
  });
});
