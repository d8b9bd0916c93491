import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { InputAnswerInput, InputRequestView, InterruptPart } from '@chatwire/core';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkRequest } from '../src/index.js';

afterEach(cleanup);

const part = { type: 'interrupt', id: 'inp_1', reason: 'input_request', status: 'pending' } as unknown as InterruptPart;
const request = (extra: Partial<InputRequestView>): InputRequestView => ({
  id: 'inp_1',
  message: 'Sign in to notes to use its tools.',
  schema: { type: 'object', properties: {} },
  toolCallId: 'c1',
  toolName: 'notes__sign_in',
  status: 'pending',
  part,
  url: 'https://auth.example.com/authorize?client_id=x&state=s',
  ...extra,
});

describe('LinkRequest', () => {
  it('Connect <server> opens the authorization page only on the click, and the sign-in broadcast answers accept once', async () => {
    const opened: string[] = [];
    const answers: InputAnswerInput[] = [];
    render(
      <LinkRequest request={request({ connect: 'notes' })} onAnswer={(answer) => answers.push(answer)} open={(url) => opened.push(url)} />,
    );
    expect(screen.getByText('Signs you in at auth.example.com')).toBeTruthy();
    expect(opened).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Connect notes' }));
    expect(opened).toEqual(['https://auth.example.com/authorize?client_id=x&state=s']);
    expect(screen.getByRole('status').textContent).toContain('Waiting for the sign-in');
    // Another server's sign-in, and a malformed message, answer nothing.
    const channel = new BroadcastChannel('chatwire.mcp');
    await act(async () => {
      channel.postMessage({ type: 'signed-in', server: 'other' });
      channel.postMessage('<b>x</b>');
      channel.postMessage({ type: 'signed-in', server: 'notes' });
      channel.postMessage({ type: 'signed-in', server: 'notes' });
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    channel.close();
    expect(answers).toEqual([{ id: 'inp_1', action: 'accept', content: {} }]);
  });

  it('a URL-mode elicitation shows the message and host as text; Open opens and accepts, Decline declines', () => {
    const opened: string[] = [];
    const answers: InputAnswerInput[] = [];
    const { rerender } = render(
      <LinkRequest
        request={request({ message: '<img src=x onerror=alert(1)>', url: 'https://example.com/link' })}
        onAnswer={(answer) => answers.push(answer)}
        open={(url) => opened.push(url)}
      />,
    );
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open example.com' }));
    expect(opened).toEqual(['https://example.com/link']);
    expect(answers).toEqual([{ id: 'inp_1', action: 'accept', content: {} }]);
    rerender(
      <LinkRequest
        request={request({ id: 'inp_2', url: 'https://example.com/link' })}
        onAnswer={(answer) => answers.push(answer)}
        open={() => {}}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(answers.at(-1)).toEqual({ id: 'inp_2', action: 'decline' });
  });

  it('renders nothing for a form request', () => {
    const { container } = render(<LinkRequest request={request({ url: undefined } as Partial<InputRequestView>)} onAnswer={() => {}} />);
    expect(container.innerHTML).toBe('');
  });
});
