import type { Message, ToolCall } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { markStored } from '../src/history/storedMessages.js';
import { branchFoldStats, countRequestTokens, countRequestTokensPlain, prepareStoredBranch, tokenCountStats } from '../src/model/tokens.js';
import { pick, seededRandom } from './seededRandom.js';

/*
 * countRequestTokens puts a request's count together from pieces: each message's count remembered by
 * its text, a stored branch's count folded once, the joins between pieces counted apart (tokens.ts).
 * Its plain version counts the request's JSON in one piece. The two must agree on every request.
 */

const PIECES = ['word', ' ', 'Paris', '12°C', '"', '\\', '\n\n', '😀', 'é', '{"a":1}', '},{"', '<|endoftext|>', '.', ','];

const textOf = (next: (below: number) => number, most: number) => {
  let text = '';
  for (let length = next(most); length > 0; length--) text += pick(next, PIECES);
  return text;
};

function randomMessage(next: (below: number) => number, index: number): Message {
  const id = `m${index}`;
  switch (next(5)) {
    case 0: {
      const toolCalls = Array.from({ length: 1 + next(2) }, (_, call): ToolCall => ({
        id: `c${index}_${call}`,
        type: 'function',
        function: { name: 'noteDown', arguments: JSON.stringify({ text: textOf(next, 8) }) },
      }));
      return { id, role: 'assistant', ...(next(2) === 0 ? { content: textOf(next, 10) } : {}), toolCalls };
    }
    case 1:
      return { id, role: 'tool', toolCallId: `c${index - 1}_0`, content: JSON.stringify({ noted: textOf(next, 6) }) };
    case 2:
      return { id, role: 'assistant', content: textOf(next, 40) };
    default:
      return { id, role: 'user', content: textOf(next, 30) };
  }
}

describe('the request count put together from pieces and its plain version (the JSON counted whole) agree', () => {
  it('on 40 seeded random chats read turn by turn, with and without a stored branch before the new messages', () => {
    const next = seededRandom(4305);
    const before = { ...tokenCountStats, folded: branchFoldStats.messagesFolded };
    for (let chat = 0; chat < 40; chat++) {
      const stored = next(2) === 0;
      const messages: Message[] = [];
      const system = next(3) === 0 ? undefined : textOf(next, 20);
      const tools = next(2) === 0 ? [] : [{ name: 'noteDown', description: textOf(next, 10), parameters: { type: 'object' } }];
      for (let turn = 0; turn < 12; turn++) {
        // A turn adds a few messages; a store marks and folds the branch it kept so far.
        for (let added = 1 + next(4); added > 0; added--) messages.push(randomMessage(next, messages.length));
        const branch = stored ? messages.map((message) => markStored(message)) : messages;
        const request = { system, messages: [...branch, randomMessage(next, 10_000 + turn)], tools };
        if (stored) prepareStoredBranch(branch);
        expect(countRequestTokens(request), `chat ${chat}, turn ${turn}`).toBe(countRequestTokensPlain(request));
      }
    }
    // The pieced-together way was taken: counts remembered, stored branches folded.
    expect(tokenCountStats.remembered - before.remembered).toBeGreaterThan(500);
    expect(branchFoldStats.messagesFolded - before.folded).toBeGreaterThan(0);
  });
});
