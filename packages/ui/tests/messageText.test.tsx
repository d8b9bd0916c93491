// @vitest-environment-options {"url": "http://localhost:4440/"}
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageList } from '../src/index.js';
import { assistant } from './parts.js';

afterEach(cleanup);

describe('assistant text', () => {
  it('shows plain text at once, then Markdown once the renderer has loaded, with markup from the model as text', async () => {
    const text = 'Here is **bold** and <img src=x onerror="alert(1)"> and [a link](https://example.com) and [a trap](javascript:alert(1)).';
    const { container } = render(<MessageList messages={[assistant('a1', [{ type: 'text', text, state: 'done' }])]} />);
    // Before the lazily loaded renderer arrives, or after: the words are there, never an <img>.
    expect(container.textContent).toContain('Here is');
    await waitFor(() =>
      expect(container.querySelector('.cw-markdown strong, .cw-markdown [data-streamdown="strong"]')?.textContent).toBe('bold'),
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    const link = screen.getByRole('link', { name: 'a link' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(link.getAttribute('href')).toBe('https://example.com/');
    // A javascript: link is never a link.
    expect(container.querySelector('a[href^="javascript"]')).toBeNull();
    expect(screen.queryByRole('link', { name: /a trap/ })).toBeNull();
  });

  it('completes unterminated Markdown while it streams', async () => {
    const { container } = render(
      <MessageList messages={[assistant('a1', [{ type: 'text', text: 'Almost **done', state: 'streaming' }])]} busy />,
    );
    await waitFor(() => expect(container.querySelector('.cw-markdown')).not.toBeNull());
    expect(container.querySelector('.cw-text')?.getAttribute('data-state')).toBe('streaming');
    expect(container.textContent).not.toContain('**');
  });
});
