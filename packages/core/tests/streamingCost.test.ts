import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@chatwire/core';
import { initialChatState } from '@chatwire/core/shared';
import { reduceWireEvent } from '@chatwire/core/wire';
import { clientOver, sse, sseResponse } from './fixtures.js';

/**
 * What one delta costs, counted (never timed): copies of the `messages` array, and how many events
 * one network read applies before anything else may run.
 */

const HISTORY = 16_000;

/** `count` earlier messages, alternating user and assistant. */
const history = (count: number): ChatMessage[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `h${index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    createdAt: index,
    parts: [{ type: 'text', text: `earlier message ${index}`, state: 'done' }],
  }));

/** One run streaming `deltas` text deltas (and, with `args`, a tool call of that many one-character argument deltas). */
function runEvents(deltas: number, args = 0): unknown[] {
  const events: unknown[] = [{ type: 'RUN_STARTED', threadId: 't', runId: 'r' }];
  events.push({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' });
  for (let index = 0; index < deltas; index++) events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: `w${index} ` });
  events.push({ type: 'TEXT_MESSAGE_END', messageId: 'm' });
  if (args > 0) {
    const json = JSON.stringify({ note: 'x'.repeat(Math.max(0, args - 11)) });
    events.push({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'note', parentMessageId: 'm' });
    for (const char of json) events.push({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: char });
    events.push({ type: 'TOOL_CALL_END', toolCallId: 'c1' });
  }
  events.push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' });
  return events;
}

/**
 * Counts the copies made of arrays at least `minLength` long while `run` runs: every way the code
 * copies an array (slice, concat, map, filter, spread and Array.from through the iterator). Spread
 * takes the iterator once it is replaced, so it is counted too.
 */
type Method = 'slice' | 'concat' | 'map' | 'filter';
const originals: { [K in Method]: (typeof Array.prototype)[K] } & { iterator: () => IterableIterator<unknown> } = {
  slice: Array.prototype.slice,
  concat: Array.prototype.concat,
  map: Array.prototype.map,
  filter: Array.prototype.filter,
  iterator: Array.prototype[Symbol.iterator],
};
const restore = () => {
  for (const name of ['slice', 'concat', 'map', 'filter'] as const)
    (Array.prototype as unknown as Record<string, unknown>)[name] = originals[name];
  Array.prototype[Symbol.iterator] = originals.iterator as (typeof Array.prototype)[typeof Symbol.iterator];
};
afterEach(restore);

async function countCopies(minLength: number, run: () => Promise<void>): Promise<number> {
  let copies = 0;
  const count = (array: unknown) => {
    if (Array.isArray(array) && array.length >= minLength) copies++;
  };
  for (const name of ['slice', 'concat', 'map', 'filter'] as const) {
    const original = originals[name] as (...args: unknown[]) => unknown;
    (Array.prototype as unknown as Record<string, unknown>)[name] = function (this: unknown[], ...args: unknown[]) {
      count(this);
      return original.apply(this, args);
    };
  }
  Array.prototype[Symbol.iterator] = function (this: unknown[]) {
    count(this);
    return originals.iterator.call(this);
  } as (typeof Array.prototype)[typeof Symbol.iterator];
  try {
    await run();
  } finally {
    restore();
  }
  return copies;
}

/** A client with `earlier` messages that streams `events` in one network read; counts copies of `messages` while the turn runs. */
async function turn(earlier: number, events: unknown[]) {
  const { client } = clientOver(() => sseResponse(sse(events)), { initialMessages: history(earlier) });
  const copies = await countCopies(Math.max(earlier, 1), async () => {
    await client.sendMessage('hi');
  });
  return { client, copies };
}

describe('a delta touches only the message it changes', () => {
  // The first request of a page is built before the client's reading chunk loads (another
  // conversion path): load it first, so that every counted turn builds its request the same way.
  beforeAll(async () => {
    await turn(0, runEvents(1));
  });

  it('copies `messages` a fixed number of times per turn, whatever the number of text deltas', async () => {
    const few = await turn(HISTORY, runEvents(10));
    const many = await turn(HISTORY, runEvents(2_000));
    expect(many.client.getSnapshot().messages).toHaveLength(HISTORY + 2);
    // Building the request and adding the two messages copy the history; the deltas add nothing.
    expect(many.copies).toBe(few.copies);
    expect(many.copies).toBeLessThanOrEqual(6);
  });

  it('the same for one-character argument deltas of a tool call', async () => {
    const few = await turn(HISTORY, runEvents(1, 20));
    const many = await turn(HISTORY, runEvents(1, 2_000));
    const call = many.client
      .getSnapshot()
      .messages.at(-1)
      ?.parts.find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({ state: 'input-complete', input: { note: 'x'.repeat(1_989) } });
    expect(many.copies).toBe(few.copies);
  });

  it('each delta still makes a new snapshot, and every snapshot keeps what it showed', async () => {
    const { client } = clientOver(() => sseResponse(sse(runEvents(3))), { initialMessages: history(100) });
    const seen: { snapshot: ReturnType<typeof client.getSnapshot>; text: string }[] = [];
    client.subscribe(() => {
      const snapshot = client.getSnapshot();
      const last = snapshot.messages.at(-1);
      seen.push({
        snapshot,
        text: last?.role === 'assistant' ? last.parts.map((part) => (part.type === 'text' ? part.text : '')).join('') : '',
      });
    });
    await client.sendMessage('hi');
    const texts = seen.map((entry) => entry.text);
    expect(texts).toContain('w0 ');
    expect(texts).toContain('w0 w1 ');
    expect(texts).toContain('w0 w1 w2 ');
    // Later deltas changed none of the earlier snapshots (or their arrays), and each snapshot is its own object.
    for (const { snapshot, text } of seen) {
      const last = snapshot.messages.at(-1);
      expect(last?.role === 'assistant' ? last.parts.map((part) => (part.type === 'text' ? part.text : '')).join('') : '').toBe(text);
      expect(snapshot.messages).toBe(snapshot.messages);
      expect(snapshot.messages.slice(0, 100)).toEqual(history(100));
    }
    expect(new Set(seen.map((entry) => entry.snapshot)).size).toBe(seen.length);
    // A snapshot is an ordinary object: spread, JSON and equality see its messages.
    const final = client.getSnapshot();
    expect({ ...final }.messages).toBe(final.messages);
    expect(JSON.parse(JSON.stringify(final)).messages).toHaveLength(102);
    expect(Object.keys(final)).toContain('messages');
  });
});

describe('the events of one network read are applied without waiting between them', () => {
  it('applies 500 text deltas before any other task or microtask runs', async () => {
    const { client } = clientOver(() => sseResponse(sse(runEvents(500))));
    let notified = 0;
    let beforeOthers: number | undefined;
    client.subscribe(() => {
      notified++;
      const text = client.getSnapshot().messages.at(-1)?.parts[0];
      // At the first delta, ask for a microtask: it runs only once the reader yields.
      if (text?.type === 'text' && text.text === 'w0 ') queueMicrotask(() => (beforeOthers = notified));
    });
    await client.sendMessage('hi');
    expect(client.getSnapshot().status).toBe('ready');
    // Every delta of the read (and the events around them) was applied before the microtask ran.
    expect(beforeOthers).toBeGreaterThanOrEqual(500);
  });
});

describe('the streaming path keeps what it does not know', () => {
  // Deltas write their copies out for objects with only the keys the client gives them; anything
  // else (a saved part or call with keys of the app's own) is copied whole.
  const saved = (part: object): ChatMessage[] => [
    { id: 'u', role: 'user', createdAt: 1, parts: [{ type: 'text', text: 'hi', state: 'done' }] },
    { id: 'a', role: 'assistant', createdAt: 2, metadata: { saved: true }, parts: [part as ChatMessage['parts'][number]] },
  ];

  it('a text delta keeps the extra keys of a saved streaming part and its message', () => {
    let state = initialChatState(saved({ type: 'text', text: 'hel', state: 'streaming', messageId: 'm', note: 'kept' }));
    for (const delta of ['l', 'o'])
      state = reduceWireEvent(state, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta } as never, 3).state;
    expect(state.messages.at(-1)).toEqual({
      id: 'a',
      role: 'assistant',
      createdAt: 2,
      metadata: { saved: true },
      parts: [{ type: 'text', text: 'hello', state: 'streaming', messageId: 'm', note: 'kept' }],
    });
  });

  it('an argument delta keeps the extra keys of a saved streaming call', () => {
    let state = initialChatState(
      saved({
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'search',
        state: 'input-streaming',
        messageId: 'm',
        argsText: '{"q":"a',
        partialInput: { q: 'a' },
        input: undefined,
        timeline: [{ state: 'awaiting-input', at: 1 }],
        label: 'kept too',
      }),
    );
    for (const delta of ['b', 'c', '"}'])
      state = reduceWireEvent(state, { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta } as never, 4).state;
    expect(state.messages.at(-1)).toMatchObject({ id: 'a', metadata: { saved: true } });
    expect(state.messages.at(-1)?.parts[0]).toMatchObject({ argsText: '{"q":"abc"}', state: 'input-streaming', label: 'kept too' });
  });

  it('the copies it writes out have exactly the keys a spread would give', () => {
    let state = initialChatState([]);
    const events = [
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'b' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search', parentMessageId: 'm', subagentRunId: 's1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '}' },
    ];
    for (const event of events) state = reduceWireEvent(state, event as never, 5).state;
    const message = state.messages.at(-1) as ChatMessage;
    expect(Object.keys(message).sort()).toEqual(['createdAt', 'id', 'parts', 'role']);
    expect(Object.keys(message.parts[0] as object).sort()).toEqual(['messageId', 'state', 'text', 'type']);
    expect(message.parts[0]).toMatchObject({ text: 'ab' });
    expect(Object.keys(message.parts[1] as object).sort()).toEqual(
      ['argsText', 'input', 'messageId', 'partialInput', 'state', 'subagentRunId', 'timeline', 'toolCallId', 'toolName', 'type'].sort(),
    );
    expect(message.parts[1]).toMatchObject({ argsText: '{}', partialInput: {}, subagentRunId: 's1', state: 'input-streaming' });
    expect(Object.keys(state).sort()).toEqual(Object.keys(initialChatState([])).sort());
  });
});

describe('partial arguments are read without re-scanning', () => {
  it('2,000 one-character argument deltas read the partial input at geometric intervals, not per delta', async () => {
    const argumentParses = async (args: number) => {
      const { client } = clientOver(() => sseResponse(sse(runEvents(1, args))));
      let parses = 0;
      const parse = JSON.parse;
      JSON.parse = ((text: string, reviver?: never) => {
        if (typeof text === 'string' && text.startsWith('{"note"')) parses++;
        return parse(text, reviver);
      }) as typeof JSON.parse;
      try {
        await client.sendMessage('hi');
      } finally {
        JSON.parse = parse;
      }
      return parses;
    };
    const few = await argumentParses(200);
    const many = await argumentParses(2_000);
    // Every delta while the text is under 64 characters, then each time it grew by an eighth, plus the final strict parse.
    expect(few).toBeLessThanOrEqual(64 + 12);
    expect(many).toBeLessThanOrEqual(64 + 32);
    expect(many - few).toBeLessThanOrEqual(20);
  });
});
