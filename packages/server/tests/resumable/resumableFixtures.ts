import type { Event } from '@ag-ui/core';
import { createParser } from 'eventsource-parser';
import { createScriptedModel, type ChatModel, type ModelChunk } from '@chatwire/server';

/** One SSE frame as a client reads it: the `id:` line and the parsed event. */
export interface Frame {
  readonly id: number;
  readonly event: Event;
}

/** Parses complete SSE frames out of text (a frame whose blank line never arrived is dropped, as the spec says). */
export function framesOf(text: string): Frame[] {
  const frames: Frame[] = [];
  const parser = createParser({ onEvent: (event) => frames.push({ id: Number(event.id), event: JSON.parse(event.data) as Event }) });
  parser.feed(text);
  return frames;
}

/**
 * Reads an SSE response frame by frame; with `until`, stops reading (cancels the body: the client
 * goes away) as soon as it returns true, and also returns the raw text read so far.
 */
export async function readFrames(
  response: Response,
  until?: (frames: readonly Frame[]) => boolean,
): Promise<{ frames: Frame[]; text: string }> {
  const frames: Frame[] = [];
  let text = '';
  const parser = createParser({ onEvent: (event) => frames.push({ id: Number(event.id), event: JSON.parse(event.data) as Event }) });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = decoder.decode(value, { stream: true });
    text += chunk;
    parser.feed(chunk);
    if (until?.(frames)) {
      await reader.cancel();
      break;
    }
  }
  return { frames, text };
}

/** The streamed text of some frames. */
export const textOf = (frames: readonly Frame[]) =>
  frames.map(({ event }) => (event.type === 'TEXT_MESSAGE_CONTENT' ? event.delta : '')).join('');

/** Asserts-free check that ids run 1, 2, 3, ... without a gap or a repeat. */
export const idsOf = (frames: readonly Frame[]) => frames.map((frame) => frame.id);

/**
 * A scripted model at a pace, counting the chunks it produced and whether it ran to its end;
 * `settled()` resolves once a stream of it finished or was stopped (an event, not a deadline).
 */
export function countingModel(delayMs = 3): ChatModel & {
  readonly stats: { chunks: number; finished: boolean; stopped: boolean };
  readonly settled: () => Promise<void>;
} {
  const scripted = createScriptedModel({ delayMs });
  const stats = { chunks: 0, finished: false, stopped: false };
  const waiters: (() => void)[] = [];
  const settle = () => {
    for (const resolve of waiters.splice(0)) resolve();
  };
  return {
    ...scripted,
    stats,
    settled: () => (stats.finished || stats.stopped ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    async *stream(request) {
      try {
        for await (const chunk of scripted.stream(request) as AsyncIterable<ModelChunk>) {
          stats.chunks++;
          if (chunk.type === 'finish') {
            stats.finished = true;
            settle();
          }
          yield chunk;
        }
      } catch (error) {
        stats.stopped = true;
        settle();
        throw error;
      }
    },
  };
}

/** The `LONG_ANSWER` of the scripted model, as a reader must end up with it: 12 parts in order. */
export function expectLongStory(text: string): boolean {
  const parts = [...text.matchAll(/Part (\d+):/g)].map((match) => Number(match[1]));
  return parts.length === 12 && parts.every((part, index) => part === index + 1);
}

/** A run input for a long answer. */
export function storyInput(threadId: string, runId: string, content = 'write a long story') {
  return { threadId, runId, messages: [{ id: `u_${runId}`, role: 'user', content }], tools: [], context: [] };
}

/** A POST of a run input, optionally with a resume token. */
export function postRun(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A GET (resume) of a run, or of the owner's latest run in the thread when `runId` is omitted. */
export function getRun(url: string, query: { threadId: string; runId?: string }, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/api/chat?${new URLSearchParams(query as Record<string, string>)}`, { headers });
}

/** A DELETE (stop) of a run. */
export function stopRun(url: string, query: { threadId: string; runId?: string }, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/api/chat?${new URLSearchParams(query as Record<string, string>)}`, { method: 'DELETE', headers });
}

/** Polls until `check` holds. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
