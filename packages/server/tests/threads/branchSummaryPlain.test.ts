import type { Message, ToolCall } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { branchSummaryStats, summarizeBranch, summarizeBranchPlain, type BranchSummary } from '../../src/history/branchSummary.js';
import { markStored } from '../../src/history/storedMessages.js';
import { pick, seededRandom } from '../seededRandom.js';

/** What a summary says, in a form `toEqual` compares (map and set order included; the last assistant message by identity). */
const said = (summary: BranchSummary) => ({
  length: summary.length,
  openCalls: [...summary.openCalls],
  calls: [...summary.calls],
  resultTools: [...summary.resultTools],
  ordered: summary.ordered,
  stored: summary.stored,
  discovery: summary.discovery,
  editedResults: summary.editedResults,
});

/**
 * A random conversation: user turns, assistant calls (discovery among them, a call id used twice
 * now and then), results of open calls, of unknown calls, undiscovered and edited results; mostly
 * stored messages, a few that are not.
 */
function randomConversation(next: (below: number) => number, length: number): Message[] {
  const messages: Message[] = [];
  const open: ToolCall[] = [];
  let calls = 0;
  while (messages.length < length) {
    const id = `m${messages.length}`;
    let message: Message;
    const kind = next(10);
    if (kind < 2) message = { id, role: 'user', content: `question ${messages.length}` };
    else if (kind < 5) {
      const toolCalls = Array.from({ length: next(3) }, (): ToolCall => {
        const callId = next(12) === 0 && calls > 0 ? `c${next(calls)}` : `c${calls++}`;
        const name = next(5) === 0 ? DISCOVERY_TOOL_NAME : pick(next, ['noteDown', 'listOrders', 'refundOrder']);
        return { id: callId, type: 'function', function: { name, arguments: '{}' } };
      });
      open.push(...toolCalls);
      message = { id, role: 'assistant', content: 'working', ...(toolCalls.length ? { toolCalls } : {}) };
    } else {
      const answered = open.length > 0 && next(6) !== 0 ? open.splice(next(open.length), 1)[0] : undefined;
      const chatwire = pick(next, [
        undefined,
        undefined,
        { undiscovered: true },
        { editedArguments: '{"text":"edited"}' },
        { outcome: 'error' },
      ]);
      message = {
        id,
        role: 'tool',
        toolCallId: answered?.id ?? `unknown${messages.length}`,
        content: '{"ok":true}',
        ...(chatwire ? { metadata: { chatwire } } : {}),
      } as Message;
    }
    messages.push(next(15) === 0 ? message : markStored(message));
  }
  return messages;
}

describe('a branch summary continued from a known branch and its plain version (one walk) agree', () => {
  it('on 60 seeded random conversations read turn by turn, as a thread store hands out its branches', () => {
    const next = seededRandom(4301);
    const before = { ...branchSummaryStats };
    for (let conversation = 0; conversation < 60; conversation++) {
      const messages = randomConversation(next, 20 + next(120));
      // Each turn's branch is a new array, a few messages longer (a store's `path`), sometimes read again.
      for (let end = 1 + next(4); end <= messages.length; end += next(4) === 0 ? 0 : 1 + next(6)) {
        const branch = messages.slice(0, end);
        expect(said(summarizeBranch(branch)), `conversation ${conversation}, ${end} messages`).toEqual(said(summarizeBranchPlain(branch)));
        expect(summarizeBranch(branch).lastAssistant).toBe(summarizeBranchPlain(branch).lastAssistant);
        if (next(5) === 0) end += 1;
      }
    }
    // The continued path was taken, not only walks.
    expect(branchSummaryStats.extended - before.extended).toBeGreaterThan(200);
    expect(branchSummaryStats.walked - before.walked).toBeGreaterThan(0);
  });
});
