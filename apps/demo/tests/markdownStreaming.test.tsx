// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from '@chatwire/server';
import { Markdown } from '@chatwire/ui/markdown';

afterEach(cleanup);

/** The text after each delta the scripted model streams for a message: every state a reader can see. */
async function streamedStates(text: string): Promise<string[]> {
  const model = createScriptedModel();
  const states: string[] = [];
  let answer = '';
  const messages = [{ id: 'u1', role: 'user' as const, content: text }];
  for await (const chunk of model.stream({ system: undefined, messages, tools: [], signal: new AbortController().signal })) {
    if (chunk.type !== 'text-delta') continue;
    answer += chunk.delta;
    states.push(answer);
  }
  return states;
}

describe('the demo renders a streamed Markdown answer', () => {
  it('never shows a raw Markdown marker in any state the stream passes through, and ends with every block rendered', async () => {
    const states = await streamedStates('show me some markdown');
    // A real stream: many deltas, ending in Markdown with every kind of block.
    expect(states.length).toBeGreaterThan(20);
    const raw: string[] = [];
    for (const [index, state] of states.entries()) {
      const streaming = index < states.length - 1;
      const { container, unmount } = render(<Markdown text={state} streaming={streaming} />);
      const visible = container.textContent ?? '';
      if (visible.includes('**') || visible.includes('```') || /(^|\n)##/.test(visible))
        raw.push(`after ${state.length} characters: ${JSON.stringify(visible.slice(0, 160))}`);
      if (!streaming) {
        expect(container.querySelector('h2')?.textContent).toBe('What discovery does');
        expect(container.querySelector('[data-streamdown="strong"]')?.textContent).toBe('out of the prompt');
        expect(container.querySelectorAll('ol > li')).toHaveLength(3);
        expect(container.querySelector('table')?.textContent).toContain('sent up front');
        expect(container.querySelector('pre')?.textContent).toContain("const chat = useChat({ api: '/api/chat' });");
      }
      unmount();
    }
    expect(raw).toEqual([]);
    // CPU only, no waiting: 87 renders of a growing document, 1.3 s in a quiet run and 27 s at a load average of 14
    // on this 2-core machine (where the default 20 s ended it). The bound is for the machine, not for the renderer.
  }, 120_000);
});
