import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@chatwire/core';
import { initialChatState } from '@chatwire/core/shared';
import { reduceWireEvent } from '@chatwire/core/wire';
import { bodyOf, clientOver, history, sse, sseResponse } from './fixtures.js';

/**
 * What one delta costs, counted (never timed): copies of the `messages` array, and how many events
 * one network read applies before anything else may run.
 */

const HISTORY = 16_000;

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

  it('each network read of deltas makes a new snapshot, and every snapshot keeps what it showed', async () => {
    // One event per network read: every delta is a change of its own.
    const reads = runEvents(3).map((event) => sse([event]));
    const { client } = clientOver(() => sseResponse(bodyOf(reads)), { initialMessages: history(100) });
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
    let beforeOthers: unknown;
    let asked = false;
    client.subscribe(() => {
      const last = client.getSnapshot().messages.at(-1);
      // At the first text of the answer, ask for a microtask: it runs only once the reader yields.
      if (last?.role === 'assistant' && last.parts[0]?.type === 'text' && !asked) {
        asked = true;
        queueMicrotask(() => (beforeOthers = client.getSnapshot().messages.at(-1)?.parts[0]));
      }
    });
    await client.sendMessage('hi');
    expect(client.getSnapshot().status).toBe('ready');
    // Every delta of the read, and the message's end after them, was applied before the microtask ran.
    const full = Array.from({ length: 500 }, (_, index) => `w${index} `).join('');
    expect(beforeOthers).toEqual({ type: 'text', text: full, state: 'done', messageId: 'm' });
  });

  it('the text deltas of one read make one change: one reduction, one snapshot, one notification', async () => {
    const snapshotsOf = async (events: unknown[]) => {
      const { client } = clientOver(() => sseResponse(sse(events)));
      const texts: string[] = [];
      client.subscribe(() => {
        const last = client.getSnapshot().messages.at(-1);
        const part = last?.role === 'assistant' ? last.parts[0] : undefined;
        if (part?.type === 'text') texts.push(part.text);
      });
      await client.sendMessage('hi');
      return { client, texts };
    };
    const few = await snapshotsOf(runEvents(2));
    const many = await snapshotsOf(runEvents(2_000));
    expect(many.client.getSnapshot().messages.at(-1)?.parts[0]).toMatchObject({
      text: Array.from({ length: 2_000 }, (_, index) => `w${index} `).join(''),
      state: 'done',
    });
    // As many changes for 2,000 deltas as for 2, the first of them already all the text.
    expect(many.texts).toHaveLength(few.texts.length);
    expect(many.texts[0]).toHaveLength(many.texts.at(-1)?.length ?? -1);
  });

  it('joins only deltas of the same message with nothing between them, in order', async () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'one ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: '' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'two' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a' },
      { type: 'TEXT_MESSAGE_START', messageId: 'b', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: 'three ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: 'four' },
      { type: 'TEXT_MESSAGE_START', messageId: 'd', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'd', delta: 'five' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: ' and' },
      // A chunk opens a message, a content event closes it (AG-UI's chunk rule) and continues its own.
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'c', delta: 'six' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: ' seven' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: ' eight' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ];
    const { client } = clientOver(() => sseResponse(sse(events)));
    const seen: unknown[] = [];
    client.inspect((event) => {
      if (event.type === 'event' && event.event.type === 'TEXT_MESSAGE_CONTENT') seen.push(event.event.delta);
    });
    await client.sendMessage('hi');
    const parts = client
      .getSnapshot()
      .messages.at(-1)
      ?.parts.map((part) => (part.type === 'text' ? [part.messageId, part.text] : []));
    expect(parts).toEqual([
      ['a', 'one two'],
      ['b', 'three four'],
      ['d', 'five'],
      ['b', ' and'],
      ['c', 'six'],
      ['b', ' seven eight'],
    ]);
    // Inspectors still see every delta, one by one.
    expect(seen).toEqual(['one ', '', 'two', 'three ', 'four', 'five', ' and', ' seven', ' eight']);
  });

  it('ends in the same messages whether the deltas arrive in one read or one per read', async () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'one ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'two ', subagentRunId: 's1' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'three', subagentRunId: 's1' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n', delta: 'four', subagentRunId: 's2' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: ' five' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'c', delta: 'six' },
      { type: 'TEXT_MESSAGE_CHUNK', delta: ' seven' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'c', delta: ' eight' },
      // Argument deltas join the same way: per call, nothing between them.
      { type: 'TOOL_CALL_START', toolCallId: 'k1', toolCallName: 'search', parentMessageId: 'm' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'k1', delta: '{"q":' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'k1', delta: '"fo' },
      { type: 'TOOL_CALL_START', toolCallId: 'k2', toolCallName: 'search', parentMessageId: 'm' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'k2', delta: '{"q":"b' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'k1', delta: 'x"' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'k1', delta: '}' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'k2', delta: 'ar"}', subagentRunId: 's1' },
      { type: 'TOOL_CALL_END', toolCallId: 'k1' },
      { type: 'TOOL_CALL_END', toolCallId: 'k2' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
    ];
    const finalMessages = async (reads: string[]) => {
      const { client } = clientOver(() => sseResponse(bodyOf(reads)));
      await client.sendMessage('hi');
      // Ids and times are made per client: the role and the parts are what the stream wrote.
      return client.getSnapshot().messages.map(({ role, parts }) => ({
        role,
        parts: parts.map((part) => (part.type === 'tool-call' ? { ...part, timeline: part.timeline.map((entry) => entry.state) } : part)),
      }));
    };
    const joined = await finalMessages([sse(events)]);
    expect(joined).toEqual(await finalMessages(events.map((event) => sse([event]))));
    const texts = joined
      .at(-1)
      ?.parts.map((part) => (part.type === 'text' ? part.text : ''))
      .join('');
    expect(texts).toBe('one two threefour fivesix seven eight');
    const calls = joined.at(-1)?.parts.flatMap((part) => (part.type === 'tool-call' ? [[part.toolCallId, part.argsText, part.input]] : []));
    expect(calls).toEqual([
      ['k1', '{"q":"fox"}', { q: 'fox' }],
      ['k2', '{"q":"bar"}', { q: 'bar' }],
    ]);
  });

  it('a resumable run keeps the id of the last joined delta, and skips one its server repeats in the same read', async () => {
    const TOKEN = 'rt1.token';
    const frames = [
      [1, { type: 'RUN_STARTED', threadId: 't', runId: 'r', metadata: { chatwire: { resume: { token: TOKEN } } } }],
      [2, { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' }],
      [3, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a' }],
      [4, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'b' }],
      [3, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'a' }],
      [5, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'c' }],
    ] as const;
    const body = frames.map(([id, event]) => `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`).join('');
    // The connection drops after these (no end of the run), and the client may not reconnect: what it kept is what it read.
    const { client } = clientOver(() => sseResponse(bodyOf([body], { failWith: new TypeError('terminated') })), { reconnect: false });
    await client.sendMessage('hi');
    const snapshot = client.getSnapshot();
    expect(snapshot.messages.at(-1)?.parts[0]).toMatchObject({ text: 'abc' });
    expect(snapshot.activeRun).toEqual({ runId: 'r', lastEventId: 5 });
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
