import type { ErrorReport } from '@chatwire/server';
import { expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Event } from '@ag-ui/core';
import type { ModelCallUsage } from '@chatwire/core';

/** One queued answer of the local provider server. */
export interface FixtureResponse {
  /** HTTP status. Defaults to 200. */
  readonly status?: number;
  /** Response headers. Defaults to `content-type: text/event-stream` (200) or `application/json`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body, written one SSE event at a time. */
  readonly body: string;
  /** Write the body only up to the end of the first occurrence of this text (e.g. mid-event). */
  readonly cutAfter?: string;
  /** `event` (default): one write per SSE event (ended by a blank line, `\n\n` or `\r\n\r\n`). `whole`: everything in one write, so several events arrive in one read. */
  readonly writes?: 'event' | 'whole';
  /** After writing: end the response (default), destroy the socket, or hold it open until the client leaves. */
  readonly then?: 'end' | 'destroy' | 'hold';
}

/** What the local provider server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** True when the client closed the connection before the response ended. */
  closedByClient: boolean;
}

/** A fixture file of tests/providers/fixtures. */
export function fixture(provider: 'openai' | 'openai-responses' | 'anthropic', name: string): string {
  return readFileSync(new URL(`./fixtures/${provider}/${name}`, import.meta.url), 'utf8');
}

const tick = (ms = 1) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A provider on loopback (node:http, 127.0.0.1, port 0): records every request (headers and JSON
 * body) and answers each from a queue of fixture responses. An empty queue answers 599, which no
 * test expects.
 */
export async function startProviderServer() {
  const queue: FixtureResponse[] = [];
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      closedByClient: false,
    };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableEnded) record.closedByClient = true;
    });
    const answer = queue.shift() ?? { status: 599, body: '{"error":{"message":"the test server had no response queued"}}' };
    const status = answer.status ?? 200;
    res.writeHead(status, { 'content-type': status === 200 ? 'text/event-stream' : 'application/json', ...answer.headers });
    res.flushHeaders();
    const end = answer.cutAfter === undefined ? answer.body.length : answer.body.indexOf(answer.cutAfter) + answer.cutAfter.length;
    // One event per write, so the client receives them as separate chunks.
    const written = answer.body.slice(0, end);
    for (const piece of answer.writes === 'whole' ? [written] : written.split(/(?<=\r?\n\r?\n)/)) {
      if (res.destroyed) return;
      await new Promise<void>((resolve) => res.write(piece, () => resolve()));
      await tick();
    }
    const then = answer.then ?? 'end';
    if (then === 'end') res.end();
    else if (then === 'destroy') {
      await tick(20); // let the client read what was written before the connection drops
      res.socket?.destroy();
    }
    // 'hold': leave it open; close() or the client ends it
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Queues answers, served in order. */
    respond(...responses: FixtureResponse[]) {
      for (const response of responses) {
        if (response.cutAfter !== undefined && !response.body.includes(response.cutAfter)) {
          throw new Error(`cutAfter ${JSON.stringify(response.cutAfter)} is not in the body`);
        }
      }
      queue.push(...responses);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type ProviderServer = Awaited<ReturnType<typeof startProviderServer>>;

/** The streamed text of a run. */
export const textOf = (events: readonly Event[]) =>
  events.map((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? event.delta : '')).join('');

/** The types of a run's events, in order. */
export const typesOf = (events: readonly Event[]) => events.map((event) => event.type as string);

export const usagesOf = (events: readonly Event[]) =>
  events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage' ? [event.value as ModelCallUsage] : []));

/** Rejects when `promise` takes longer than `ms` (a run that ignores its abort would otherwise hang the test). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Collects a run's events, aborting `abort` at the first streamed text. */
export async function abortAtFirstText(events: AsyncIterable<Event>, abort: AbortController): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) {
    out.push(event);
    if (event.type === 'TEXT_MESSAGE_CONTENT') abort.abort();
  }
  return out;
}

/** A loopback URL nothing listens on. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/**
 * The shared check of a provider failure: the run ends in RUN_ERROR whose message names the provider
 * and contains every part of `reason`, the text that streamed before it stays, nothing reports a
 * finish, and the provider saw exactly one request (no retry).
 */
export function expectFailedRun(
  events: Event[],
  options: { prefix: string; reason: readonly string[]; text: string; requests: number; reports: readonly ErrorReport[]; host: string },
): void {
  const last = events.at(-1);
  expect(last?.type).toBe('RUN_ERROR');
  // The client reads a safe message: the kind of failure and a reference, never the provider's body or address.
  const message = (last as { message: string }).message;
  expect(message).toMatch(/^The model provider(?: |'s ).*\(ref err_[A-Za-z0-9_-]+\)\.$/);
  expect(message).not.toContain(options.host);
  for (const part of options.reason) expect(message).not.toContain(part.split(': ').at(-1));
  // The details reach the server's onError, under the same reference.
  expect(options.reports).toHaveLength(1);
  const report = options.reports[0]!;
  expect(report.kind).toBe('model');
  expect(message).toContain(report.ref);
  expect(report.message.startsWith(options.prefix)).toBe(true);
  for (const part of options.reason) expect(report.message).toContain(part);
  expect(textOf(events)).toBe(options.text);
  expect(typesOf(events)).not.toContain('RUN_FINISHED');
  expect(options.requests).toBe(1);
}
