/**
 * The cells of `npm run bench`'s table (bench/peers/table/runTable.ts): each one runs one
 * whole turn (or, for the floor, one reading of the same bytes) on fresh objects and checks its
 * outcome. `cell.ts` runs one cell in a fresh process and prints its samples.
 */
import { createParser } from 'eventsource-parser';
import type { UIMessage } from 'ai';
import {
  aiSdkBody,
  chatwireBody,
  fetchReplaying,
  runAiSdk,
  runTanStack,
  tanstackBody,
  textScenario,
  toolScenario,
  withHiddenDocument,
  URL_,
  type Body,
  type Scenario,
} from '../peers.ts';

/** The client under test: this checkout's `@chatwire/core`, or a baseline's (`BENCH_CORE`, a path to its `src/index.ts`). */
type Core = typeof import('@chatwire/core');
const loadCore = async (): Promise<Core> =>
  (process.env['BENCH_CORE'] ? await import(process.env['BENCH_CORE']) : await import('@chatwire/core')) as Core;

/** A turn the harness can time: `prepare` builds the input once, `run` is one sample. */
export interface Cell {
  readonly prepare: () => Promise<() => Promise<void>>;
  /** Samples per process (after `warmup` untimed ones). */
  readonly samples: number;
  readonly warmup: number;
}

/**
 * The parse floor: the same response bytes read the way any SSE client must read them (one
 * `read()` per 512-byte chunk, `TextDecoder`, eventsource-parser, `JSON.parse` of every event),
 * and nothing else.
 */
async function readFloor(body: Body): Promise<number> {
  const response = await fetchReplaying(body)(URL_, { method: 'POST', body: '{}' });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let events = 0;
  const parser = createParser({
    onEvent: (event) => {
      JSON.parse(event.data);
      events++;
    },
  });
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
    parser.feed(decoder.decode(chunk.value, { stream: true }));
  if (events !== body.events) throw new Error(`floor: read ${events} events, wanted ${body.events}`);
  return events;
}

/**
 * One Chatwire turn on a new client (optionally after `history` earlier messages); throws unless the
 * content arrived whole. `stored`: the history is a thread the server has stored (its last message's
 * id, as an app that loaded the thread passes it), so the request carries that message and the new one.
 */
async function chatwireTurn(core: Core, scenario: Scenario, body: Body, history: readonly unknown[] = [], stored?: string): Promise<void> {
  const warnings: string[] = [];
  const replaying = fetchReplaying(body);
  let sent = -1;
  const client = new core.ChatClient({
    connection: core.fetchServerSentEvents({
      url: URL_,
      // With a stored history, check what the request carried (its body is two messages long: reading it again costs nothing to speak of).
      fetch:
        stored === undefined
          ? replaying
          : (((url: string, init?: RequestInit) => {
              sent = (JSON.parse(String(init?.body)) as { messages: unknown[] }).messages.length;
              return replaying(url, init);
            }) as typeof fetch),
    }),
    initialMessages: history as ConstructorParameters<Core['ChatClient']>[0]['initialMessages'],
    ...(stored === undefined ? {} : { initialStoredMessageId: stored }),
    onWarning: (message) => warnings.push(message),
  });
  await client.sendMessage('hi');
  if (warnings.length > 0) throw new Error(`chatwire warned: ${warnings[0]}`);
  const snapshot = client.getSnapshot();
  const last = snapshot.messages[snapshot.messages.length - 1];
  if (snapshot.status !== 'ready' || last?.role !== 'assistant') throw new Error(`chatwire: status ${snapshot.status}`);
  if (snapshot.messages.length !== history.length + 2) throw new Error(`chatwire: ${snapshot.messages.length} messages`);
  // A baseline without stored history (BENCH_CORE before it) sends everything, which is what "before" measures.
  if (stored !== undefined && sent !== 2 && sent !== history.length + 1) throw new Error(`chatwire: the request carried ${sent} messages`);
  if (scenario.kind === 'text') {
    if (core.messageText(last) !== scenario.text) throw new Error('chatwire: the text differs');
  } else {
    const call = last.parts.find((part) => part.type === 'tool-call');
    if (call?.type !== 'tool-call' || call.state !== 'input-complete' || JSON.stringify(call.input) !== JSON.stringify(scenario.input))
      throw new Error('chatwire: the tool call differs');
  }
  client.dispose();
}

/** `count` earlier messages, alternating user and assistant, each a short sentence. */
function chatwireHistory(count: number): unknown[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `h${index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    createdAt: index,
    parts: [{ type: 'text', text: `earlier message ${index} about the quick brown fox`, state: 'done' }],
  }));
}

function aiSdkHistory(count: number): UIMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `h${index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    parts: [{ type: 'text', text: `earlier message ${index} about the quick brown fox`, state: 'done' }],
  }));
}

const TEXT_20K = () => textScenario(20_000);
const TOOL_4K = () => toolScenario(4_000);
const HISTORY_DELTAS = () => textScenario(5_000);
const HISTORY = 16_000;

/** Every cell, by name: `<row>/<library>`. */
export const cells: Record<string, Cell> = {
  // 10 untimed turns, as the history row: a fresh process's turns of the floor and of Chatwire were still
  // getting faster until about the tenth (3 before: its first timed samples were 3 to 4 times its last).
  'text20k/floor': { samples: 10, warmup: 10, prepare: async () => floorOf(chatwireBody(TEXT_20K())) },
  'text20k/chatwire': { samples: Number(process.env['BENCH_SAMPLES'] ?? 10), warmup: 10, prepare: async () => chatwireOf(TEXT_20K()) },
  'text20k/ai-sdk': { samples: 5, warmup: 2, prepare: async () => aiSdkOf(TEXT_20K()) },
  'text20k/tanstack-hidden': { samples: 5, warmup: 2, prepare: async () => tanstackOf(TEXT_20K()) },
  // 25 untimed turns: a turn is short (about 10 ms warm), and a fresh process's turns were still falling
  // (78 ms to 11 ms for Chatwire, 17 ms to 4.6 ms for the floor) until about the 25th (5 before).
  'tool4k/floor': { samples: 20, warmup: 25, prepare: async () => floorOf(chatwireBody(TOOL_4K())) },
  'tool4k/chatwire': { samples: Number(process.env['BENCH_SAMPLES'] ?? 20), warmup: 25, prepare: async () => chatwireOf(TOOL_4K()) },
  'tool4k/ai-sdk': { samples: 4, warmup: 1, prepare: async () => aiSdkOf(TOOL_4K()) },
  'tool4k/tanstack-hidden': { samples: 4, warmup: 1, prepare: async () => tanstackOf(TOOL_4K()) },
  'text1/chatwire': { samples: 30, warmup: 10, prepare: async () => chatwireOf(textScenario(1)) },
  'text1/floor': { samples: 30, warmup: 10, prepare: async () => floorOf(chatwireBody(textScenario(1))) },
  'history0/chatwire': { samples: 10, warmup: 10, prepare: async () => chatwireOf(HISTORY_DELTAS()) },
  // The history is a stored thread (the server's thread store keeps it): the request carries its last message and the new one.
  'history16k/chatwire': {
    samples: 10,
    warmup: 10,
    prepare: async () => chatwireOf(HISTORY_DELTAS(), chatwireHistory(HISTORY), `h${HISTORY - 1}`),
  },
  // The same history sent whole with every request (a server without a thread store).
  'history16k/chatwire-full': { samples: 10, warmup: 10, prepare: async () => chatwireOf(HISTORY_DELTAS(), chatwireHistory(HISTORY)) },
  'history0/ai-sdk': { samples: 3, warmup: 1, prepare: async () => aiSdkOf(HISTORY_DELTAS()) },
  // The AI SDK's documented way of sending only the last message (`prepareSendMessagesRequest`).
  'history16k/ai-sdk': { samples: 3, warmup: 1, prepare: async () => aiSdkOf(HISTORY_DELTAS(), aiSdkHistory(HISTORY), 'last') },
  'history16k/ai-sdk-full': { samples: 3, warmup: 1, prepare: async () => aiSdkOf(HISTORY_DELTAS(), aiSdkHistory(HISTORY)) },
};

function floorOf(body: Body): () => Promise<void> {
  return async () => {
    await readFloor(body);
  };
}

async function chatwireOf(scenario: Scenario, history?: unknown[], stored?: string): Promise<() => Promise<void>> {
  const core = await loadCore();
  const body = chatwireBody(scenario);
  return () => chatwireTurn(core, scenario, body, history, stored);
}

async function aiSdkOf(scenario: Scenario, history?: UIMessage[], send?: 'all' | 'last'): Promise<() => Promise<void>> {
  const body = await aiSdkBody(scenario);
  return () => runAiSdk(scenario, body, history, send);
}

async function tanstackOf(scenario: Scenario): Promise<() => Promise<void>> {
  const body = await tanstackBody(scenario);
  return () => withHiddenDocument(() => runTanStack(scenario, body));
}
