import { describe, expect, it } from 'vitest';
import type { Message } from '@ag-ui/core';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { knownMessageStats, parseRunInputText, rememberCheckedMessages } from '../src/http/knownMessages.js';
import { readRunInput } from '../src/http/readRunInput.js';
import { readEvents, runInput, user } from './fixtures.js';
import { pick, seededRandom } from './seededRandom.js';

const post = (handler: (request: Request) => Promise<Response>, messages: unknown[], text?: string) =>
  handler(
    new Request('http://localhost/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text ?? JSON.stringify(runInput(messages)),
    }),
  );

/** `count` plain user / assistant messages, unique by `tag`. */
const chat = (count: number, tag: string): Message[] =>
  Array.from({ length: count }, (_, i): Message =>
    i % 2 === 0
      ? { id: `${tag}_u${i}`, role: 'user', content: `question ${i} of ${tag}` }
      : { id: `${tag}_a${i}`, role: 'assistant', content: `answer ${i} of ${tag}` },
  );

describe('a request parses and checks only the messages the server has not seen', () => {
  it('after 1,000 earlier messages the server checked, the next request parses one message', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), secret: 'known-secret' });
    const earlier = chat(1_000, 'flat');
    expect((await readEvents(await post(handler, [...earlier, user('first', 'flat_q1')]))).at(-1)?.type).toBe('RUN_FINISHED');
    const before = { ...knownMessageStats };
    expect((await readEvents(await post(handler, [...earlier, user('second', 'flat_q2')]))).at(-1)?.type).toBe('RUN_FINISHED');
    expect(knownMessageStats.parsed - before.parsed).toBe(1);
    expect(knownMessageStats.remembered - before.remembered).toBe(1_000);
  });

  it("a chat's turns: each request parses only what the last turn added, and an edit deep in the history only the edited message", async () => {
    const handler = createChatHandler({ model: createScriptedModel(), secret: 'known-secret' });
    const history: Message[] = chat(1_000, 'turns');
    expect((await post(handler, [...history, user('turn 0', 'turns_q0')])).status).toBe(200);
    history.push({ id: 'turns_q0', role: 'user', content: 'turn 0' });
    for (let turn = 1; turn <= 3; turn++) {
      history.push({ id: `turns_r${turn}`, role: 'assistant', content: `reply ${turn}` });
      const before = { ...knownMessageStats };
      const message = { id: `turns_q${turn}`, role: 'user' as const, content: `turn ${turn}` };
      expect((await readEvents(await post(handler, [...history, message]))).at(-1)?.type).toBe('RUN_FINISHED');
      history.push(message);
      // The assistant's reply the client sends back, and the new question.
      expect(knownMessageStats.parsed - before.parsed).toBe(2);
      expect(knownMessageStats.remembered - before.remembered).toBe(history.length - 2);
    }
    const edited = history.map((message, i) => (i === 500 ? { ...message, content: 'edited deep in the history' } : message));
    const before = { ...knownMessageStats };
    expect((await post(handler, [...edited, user('after the edit', 'turns_edit')])).status).toBe(200);
    expect(knownMessageStats.parsed - before.parsed).toBe(2);
  });

  it('a message changed under an id the server saw is parsed and checked anew, never taken from what the id had', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), secret: 'known-secret' });
    const earlier = chat(40, 'edit');
    expect((await post(handler, [...earlier, user('first', 'edit_q1')])).status).toBe(200);
    // Same id, content no longer a string or parts: refused, though the id was checked before.
    const broken = earlier.map((message, i) => (i === 6 ? { ...message, content: 42 } : message));
    const parsed = knownMessageStats.parsed;
    const refused = await post(handler, [...broken, user('second', 'edit_q2')]);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { code: string }).code).toBe('invalid-run-input');
    expect(knownMessageStats.parsed - parsed).toBe(2);
    // Same id, a control character in a tool call id: refused by the id check.
    const call = { id: 'call\u0007', type: 'function', function: { name: 'x', arguments: '{}' } };
    const badId = earlier.map((message, i) => (i === 7 ? { ...message, toolCalls: [call] } : message));
    const response = await post(handler, [...badId, user('third', 'edit_q3')]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('invalid-id');
    // The model reads the edited text, not the one the id had.
    const edited = earlier.map((message, i) => (i === 8 ? { ...message, content: 'an edited question' } : message));
    const events = await readEvents(await post(handler, [...edited, user('fourth', 'edit_q4')]));
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('parses exactly as JSON.parse, cold and warm, whatever the text holds', () => {
    const tricky = [
      'plain',
      'a "quoted" word',
      'back\\slash',
      'ends with a backslash \\',
      '\\"',
      '{"messages":[1,2]}',
      '] , [ } {',
      '\u2028\u2029',
      'Ünïcödé 日本語 😀',
      '',
    ];
    const messages: unknown[] = tricky.map((content, i) => ({
      id: `p${i}`,
      role: 'user',
      content,
      metadata: { n: [i, [i], { k: null }] },
    }));
    const bodies = [
      JSON.stringify(runInput(messages)),
      JSON.stringify(runInput(messages), null, 2),
      JSON.stringify({ state: { messages: [{ fake: true }] }, ...runInput(messages), forwardedProps: { note: '"messages":[' } }),
      `{"threadId":"t","runId":"r","messages":[],"tools":[],"context":[],"pad":"${'x'.repeat(2_000)}"}`,
      `{"messages":[${JSON.stringify(messages[0])}],"threadId":"t","runId":"r","messages":[],"pad":"${'x'.repeat(2_000)}"}`,
      `{"mess\\u0061ges":[${JSON.stringify(messages[1])}],"threadId":"t","runId":"r","pad":"${'x'.repeat(2_000)}"}`,
      `[${JSON.stringify(messages[0])}, "${'x'.repeat(2_000)}"]`,
    ];
    for (const text of bodies) {
      expect(parseRunInputText(text)).toEqual(JSON.parse(text));
      // Warm: each message remembered as the checks leave it, then the same text again.
      const first = parseRunInputText(text);
      const read = readRunInput(first);
      if (read.ok) rememberCheckedMessages(first, read.input.messages);
      const again = parseRunInputText(text) as { messages?: unknown };
      if (read.ok) expect(again.messages).toEqual(read.input.messages);
      else expect(again).toEqual(JSON.parse(text));
    }
    for (const broken of [
      `{"threadId":"t","messages":[{"id":"a","role":"user","content":"x"},],"pad":"${'x'.repeat(2_000)}"}`,
      `{"threadId":"t","messages":[{"id":"a","role":"user","content":"x}],"pad":"${'x'.repeat(2_000)}"}`,
      `{"threadId":"t","messages":[{"id":"a"} {"id":"b"}],"pad":"${'x'.repeat(2_000)}"}`,
      `{"threadId":"t","messages":[{"id":"a"}],"pad":"${'x'.repeat(2_000)}"`,
    ]) {
      expect(() => JSON.parse(broken)).toThrow(SyntaxError);
      expect(() => parseRunInputText(broken)).toThrow(SyntaxError);
    }
  });

  it('messages taken from the cache are frozen: no request can change what the next one reads', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), secret: 'known-secret' });
    const earlier = chat(40, 'frozen');
    const text = JSON.stringify(runInput([...earlier, user('one', 'frozen_q1')]));
    expect((await post(handler, [], text)).status).toBe(200);
    const body = parseRunInputText(text) as { messages: Message[] };
    expect(Object.isFrozen(body.messages[0])).toBe(true);
    expect(() => {
      (body.messages[0] as { content: string }).content = 'changed';
    }).toThrow(TypeError);
  });
});

describe('parseRunInputText and its plain version (JSON.parse) agree', () => {
  /** Characters that make a JSON scan work: quotes, backslashes, brackets, separators, multi-unit characters. */
  const CHARACTERS = ['a', ' ', '"', '\\', '{', '}', '[', ']', ',', ':', '\n', '\u2028', 'é', '😀', '"messages":[', '\\u0041'];
  const text = (next: (below: number) => number, most: number) => {
    let value = '';
    for (let length = next(most); length > 0; length--) value += pick(next, CHARACTERS);
    return value;
  };
  const randomMessage = (next: (below: number) => number, index: number): Record<string, unknown> => ({
    id: `r${index}_${next(1_000_000)}`,
    role: pick(next, ['user', 'assistant', 'developer']),
    content: text(next, 120),
    ...(next(3) === 0 ? { metadata: { note: text(next, 20), n: [next(9), [null, true], { k: text(next, 8) }] } } : {}),
  });

  it('on 150 seeded random bodies, cold and warm, with one message edited between the two', () => {
    const next = seededRandom(4302);
    const before = { ...knownMessageStats };
    let warm = 0;
    for (let index = 0; index < 150; index++) {
      const messages = Array.from({ length: 2 + next(30) }, (_, at) => randomMessage(next, at));
      const input = runInput(messages) as Record<string, unknown>;
      // Keys in another order, a fake `messages` inside another value, padding: the scan must find the real list.
      const body = pick(next, [
        input,
        { state: { messages: [{ fake: text(next, 10) }] }, ...input },
        { messages: input['messages'], threadId: 't', runId: 'r', forwardedProps: { note: '"messages":[' } },
        { ...input, pad: 'x'.repeat(1_024) },
      ]);
      const json = next(4) === 0 ? JSON.stringify(body, null, 2) : JSON.stringify(body);
      expect(parseRunInputText(json), `case ${index}, cold`).toEqual(JSON.parse(json));
      // Warm: each message remembered as the checks leave it, then the same text again, and the text with one message edited.
      const first = parseRunInputText(json);
      const read = readRunInput(first);
      if (!read.ok) continue;
      rememberCheckedMessages(first, read.input.messages);
      const again = parseRunInputText(json) as Record<string, unknown>;
      expect({ ...again, messages: undefined }, `case ${index}, warm`).toEqual({ ...(JSON.parse(json) as object), messages: undefined });
      expect(again['messages'], `case ${index}, warm messages`).toEqual(read.input.messages);
      const edited = json.replace(`"id":"${messages[0]?.['id'] as string}"`, `"id":"${messages[0]?.['id'] as string}x"`);
      expect(parseRunInputText(edited), `case ${index}, edited`).toEqual(JSON.parse(edited));
      warm++;
    }
    // Most bodies went the warm way, and their messages came from what was remembered.
    expect(warm).toBeGreaterThan(120);
    expect(knownMessageStats.remembered - before.remembered).toBeGreaterThan(1_000);
  });
});
