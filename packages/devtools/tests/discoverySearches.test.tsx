import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelCallUsage, TurnRecord } from '@chatwire/core';
import { readModelCallUsage } from '@chatwire/core/wire';
import { DiscoverySearchesView } from '../src/panel/views/DiscoverySearchesView.js';

afterEach(cleanup);

const call = (step: number, discoverySearches?: ModelCallUsage['discoverySearches']) => ({
  step,
  ...(discoverySearches ? { discoverySearches } : {}),
});

describe('which search answered, in devtools', () => {
  it('lists each discovery search of the turn with the search that answered and why it fell back', () => {
    const turns = [
      {
        modelCalls: [
          call(1, [{ by: 'app', ms: 41, query: 'refund my order', matches: 2 }]),
          call(2),
          call(3, [{ by: 'built-in', fallback: 'timeout', ms: 2001, query: '<img src=x onerror=alert(1)>', matches: 3 }]),
        ],
      },
    ] as unknown as TurnRecord[];
    render(<DiscoverySearchesView turns={turns} turn={1} />);
    const rows = screen.getByTestId('discovery-searches').querySelectorAll('tbody tr');
    expect([...rows].map((row) => row.getAttribute('data-by'))).toEqual(['app', 'built-in']);
    expect(rows[0]?.textContent).toContain('app search hook');
    expect(rows[1]?.textContent).toContain('built-in (hook timeout)');
    // A query is text, never markup.
    expect(rows[1]?.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(document.querySelector('img')).toBeNull();
  });

  it('shows nothing for a turn without searches', () => {
    const { container } = render(<DiscoverySearchesView turns={[{ modelCalls: [call(1)] }] as unknown as TurnRecord[]} turn={1} />);
    expect(container.innerHTML).toBe('');
  });

  it('keeps a usage record whose search reports are malformed, without them', () => {
    const base = {
      runId: 'r',
      step: 1,
      toolsSent: [],
      toolsDeferred: [],
      newlyDiscovered: [],
      tokens: { sent: 0, allEager: 0, saved: 0, discoveryTool: 0, discoveryRoundTrips: 0, net: 0 },
      counting: { method: 'm', errorBound: 0, estimate: false },
      eagerWouldBeCheaper: false,
    };
    expect(
      readModelCallUsage({ ...base, discoverySearches: [{ by: 'app', ms: 1, query: 'q', matches: 1 }] })?.discoverySearches,
    ).toHaveLength(1);
    const bad = readModelCallUsage({ ...base, discoverySearches: [{ by: 'someone', ms: 'slow' }] });
    expect(bad).toBeDefined();
    expect(bad?.discoverySearches).toBeUndefined();
  });
});
