import type { Message } from '@ag-ui/core';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseRunInputText, rememberCheckedMessages } from '../../src/http/knownMessages.js';
import { summarizeBranch, type BranchSummary } from '../../src/history/branchSummary.js';

/*
 * A request body's branch summary must live as long as its branch (held by the cache of checked
 * message runs), not as long as its last message (held by the cache of message texts, which keeps a
 * message after the run it came in is gone). Counted, not timed: each summary made is held by a
 * WeakRef, and after a full collection the ones still alive are counted.
 */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * The summaries among `refs` still alive (each counted once: a branch that is a known one gets its
 * summary again), after the current job ends (WeakRef targets are kept until then) and a full collection.
 */
async function alive(refs: readonly WeakRef<BranchSummary>[]): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  return new Set(refs.map((ref) => ref.deref()).filter((summary) => summary !== undefined)).size;
}

/** A history of `assistants` assistant messages of `calls` calls each (a wide branch: its summary copies every call). */
function wideHistory(tag: string, assistants: number, calls: number): Message[] {
  const messages: Message[] = [{ id: `${tag}-u0`, role: 'user', content: 'hi' }];
  let id = 0;
  for (let m = 0; m < assistants; m++) {
    const toolCalls = Array.from({ length: calls }, () => ({
      id: `${tag}-c${id++}`,
      type: 'function' as const,
      function: { name: 't', arguments: '{}' },
    }));
    messages.push({ id: `${tag}-a${m}`, role: 'assistant', content: '', toolCalls });
  }
  return messages;
}

/** What the handler does with a body once its shape is checked (before the owner, the limits or the review): the summaries it makes. */
function send(messages: readonly Message[]): BranchSummary[] {
  const text = JSON.stringify({ threadId: 't', runId: 'r', state: {}, tools: [], context: [], forwardedProps: {}, messages });
  const body = parseRunInputText(text) as { messages: Message[] };
  return rememberCheckedMessages(body, body.messages).map((branch) => summarizeBranch(branch, { hold: false }));
}

const REQUESTS = 60;

/** WeakRefs to the distinct summaries made (a known branch gets the same one again), holding none of them. */
function tracker() {
  const seen = new WeakSet<BranchSummary>();
  const refs: WeakRef<BranchSummary>[] = [];
  const track = (summaries: readonly BranchSummary[]) => {
    for (const summary of summaries) {
      if (seen.has(summary)) continue;
      seen.add(summary);
      refs.push(new WeakRef(summary));
    }
  };
  return { refs, track };
}

describe('a request branch summary lives only as long as its branch', () => {
  it('one body sent again with a new last message each time: the summaries of runs the cache let go are let go', async () => {
    const history = wideHistory('same', 10, 50);
    const { refs, track } = tracker();
    track(send(history));
    for (let i = 0; i < REQUESTS; i++) track(send([...history, { id: `same-leaf${i}`, role: 'user', content: `x${i}` }]));
    expect(refs.length).toBeGreaterThanOrEqual(REQUESTS);
    // The cache keeps a few runs per first message (and every last message's text): only their summaries may stay.
    expect(await alive(refs)).toBeLessThanOrEqual(10);
  });

  it('a history grown by one message a request, never counted (refused after the shape check): its summaries are not chained', async () => {
    const history = wideHistory('grow', 10, 50);
    const { refs, track } = tracker();
    for (let i = 0; i < REQUESTS; i++) {
      history.push({ id: `grow-leaf${i}`, role: 'user', content: `x${i}` });
      track(send(history));
    }
    expect(refs.length).toBeGreaterThanOrEqual(REQUESTS);
    expect(await alive(refs)).toBeLessThanOrEqual(10);
  });
});
