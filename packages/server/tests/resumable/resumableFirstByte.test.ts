import { describe, expect, it } from 'vitest';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createChatHandler,
  createMemoryStore,
  createScriptedModel,
  toNodeListener,
  type ChatModel,
  type ModelChunk,
} from '@chatwire/server';
import { runInput, user } from '../fixtures.js';
import { framesOf, idsOf } from './resumableFixtures.js';

const DELTAS = 20_000;

/** A model that yields `DELTAS` text deltas without ever pausing, counting the ones it produced. */
function fastCountingModel(): ChatModel & { readonly produced: () => number } {
  let produced = 0;
  return {
    ...createScriptedModel(),
    produced: () => produced,
    async *stream(): AsyncIterable<ModelChunk> {
      for (let i = 0; i < DELTAS; i++) {
        produced++;
        yield { type: 'text-delta', delta: `w${i} ` };
      }
      yield { type: 'finish', reason: 'stop' };
    },
  };
}

describe("a resumable run's first byte and writes", () => {
  it('reaches the client through the node adapter long before a model that never pauses has produced its run', async () => {
    const model = fastCountingModel();
    const handler = toNodeListener(createChatHandler({ model, secret: 'first-byte-secret', store: createMemoryStore(), resumable: true }));
    let writes = 0;
    const server = createServer((req, res) => {
      const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        writes++;
        return write(chunk, ...rest);
      }) as typeof res.write;
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const body = JSON.stringify(runInput([user('hello')]));
      const { producedAtFirstChunk, text } = await new Promise<{ producedAtFirstChunk: number; text: string }>((resolve, reject) => {
        const request = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: '/api/chat',
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (response) => {
            let producedAtFirstChunk: number | undefined;
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              producedAtFirstChunk ??= model.produced();
              text += chunk;
            });
            response.on('end', () => resolve({ producedAtFirstChunk: producedAtFirstChunk ?? -1, text }));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(body);
      });
      // Before the fix the recorder drained the whole run in one turn: the first chunk came with all 20,000 deltas produced.
      expect(producedAtFirstChunk).toBeGreaterThanOrEqual(0);
      expect(producedAtFirstChunk).toBeLessThan(DELTAS / 10);
      // Still every event, recorded with its id, in order.
      const frames = framesOf(text);
      expect(idsOf(frames)).toEqual(Array.from({ length: frames.length }, (_, i) => i + 1));
      expect(frames.filter((frame) => frame.event.type === 'TEXT_MESSAGE_CONTENT')).toHaveLength(DELTAS);
      expect(frames.at(-1)?.event.type).toBe('RUN_FINISHED');
      // The appends of one turn go out as one write (one page per append before they were coalesced).
      expect(writes).toBeLessThanOrEqual(DELTAS / 100);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
