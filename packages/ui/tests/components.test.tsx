import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { toolDefinition, type ChatMessage, type SendResult, type ToolCallPart } from '@chatwire/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Composer, createToolUIRegistry, makeToolUI, MessageList, ToolCallCard, toolCallStatus } from '../src/index.js';
import { assistant, discoveryDone, failed, refundDeclined, refundWaiting, toolCall, user, weatherDone } from './parts.js';

afterEach(cleanup);

/** The raw lifecycle state names: none of them may show as text by default. */
const RAW_STATES = [
  'awaiting-input',
  'input-streaming',
  'input-complete',
  'approval-requested',
  'approval-responded',
  'executing',
  'output-available',
  'output-error',
];

function visibleText(element: HTMLElement): string {
  // Folded <details> (the JSON, the discovery step's body) are not shown until opened.
  const clone = element.cloneNode(true) as HTMLElement;
  for (const details of clone.querySelectorAll('details:not([open])'))
    for (const child of [...details.children]) if (child.tagName !== 'SUMMARY') child.remove();
  return clone.textContent ?? '';
}

describe('MessageList', () => {
  it('is a labelled log of list items, one per message, with each role', () => {
    render(<MessageList messages={[user('u1', 'hello'), assistant('a1', [weatherDone])]} />);
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(log.getAttribute('aria-live')).toBe('polite');
    const items = within(log).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-role'))).toEqual(['user', 'assistant']);
    expect(items[0]!.textContent).toContain('hello');
  });

  it('labels every tool call state in words and shows no raw state names or JSON by default', () => {
    const states = RAW_STATES.map((state) => toolCall({ toolName: 'lookUp', state: state as never, input: { query: 'shoes' } }));
    const { container } = render(
      <MessageList messages={[assistant('a1', [...states, weatherDone, refundWaiting, refundDeclined, failed])]} onApproval={() => {}} />,
    );
    const text = visibleText(container);
    for (const state of RAW_STATES) expect(text).not.toContain(state);
    expect(text).not.toContain('{"');
    const labels = screen.getAllByTestId('tool-state').map((element) => element.textContent);
    expect(labels).toEqual([
      'Preparing',
      'Preparing',
      'Ready to run',
      'Waiting for your approval',
      'Answered',
      'Running',
      'Done',
      'Failed',
      'Done',
      'Waiting for your approval',
      'Declined',
      'Failed',
    ]);
    // Arguments and results read as fields.
    const weather = container.querySelectorAll('[data-tool="getWeather"]')[0] as HTMLElement;
    expect(weather.textContent).toContain('City: Paris');
    expect(within(weather).getByTestId('tool-result').textContent).toContain('Celsius18');
    // The JSON is there, folded, one click away.
    expect(within(weather).getByText('JSON').closest('details')?.open).toBe(false);
  });

  it('renders the discovery step by default, and hides or replaces it on request', () => {
    const messages = [assistant('a1', [discoveryDone, weatherDone])];
    const { unmount } = render(<MessageList messages={messages} />);
    const step = screen.getByTestId('discovery-step');
    expect(step.querySelector('summary')?.textContent).toContain('Discovered trackShipment');
    expect(visibleText(step)).not.toContain('__lazy__tool__discovery__');
    unmount();

    const hidden = render(<MessageList messages={messages} discovery="hidden" />);
    expect(screen.queryByTestId('discovery-step')).toBeNull();
    expect(screen.getAllByTestId('tool-call')).toHaveLength(1);
    hidden.unmount();

    render(
      <MessageList
        messages={messages}
        discovery={(part) => <span data-testid="mine">{`found ${String((part.input as { toolNames: string[] }).toolNames)}`}</span>}
      />,
    );
    expect(screen.getByTestId('mine').textContent).toBe('found trackShipment');
  });

  it('marks stopped answers and offers Regenerate on the last answer only', () => {
    const onRegenerate = vi.fn();
    render(
      <MessageList
        messages={[user('u1', 'a'), assistant('a1', []), user('u2', 'b'), assistant('a2', [])]}
        stopped={new Set(['a2'])}
        onRegenerate={onRegenerate}
      />,
    );
    expect(screen.getByTestId('stopped-mark').textContent).toBe('Stopped: this answer was cut off');
    const regenerate = screen.getAllByRole('button', { name: 'Regenerate' });
    expect(regenerate).toHaveLength(1);
    fireEvent.click(regenerate[0]!);
    expect(onRegenerate).toHaveBeenCalledTimes(1);
  });

  it('edits a user message with the keyboard: Enter saves, Escape cancels', () => {
    const onEdit = vi.fn();
    render(<MessageList messages={[user('u1', 'first')]} onEdit={onEdit} />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const field = screen.getByRole('textbox', { name: 'Edit message' });
    expect(document.activeElement).toBe(field);
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Edit message' }), { target: { value: 'second' } });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edit message' }), { key: 'Enter' });
    expect(onEdit).toHaveBeenCalledWith('u1', 'second');
  });
});

describe('approvals', () => {
  it('is a labelled group whose buttons answer with the approval id', () => {
    const onApproval = vi.fn();
    render(<ToolCallCard part={refundWaiting} onApproval={onApproval} />);
    const group = screen.getByRole('group', { name: 'Allow refundOrder to run?' });
    fireEvent.click(within(group).getByRole('button', { name: 'Approve' }));
    fireEvent.click(within(group).getByRole('button', { name: 'Deny' }));
    expect(onApproval.mock.calls).toEqual([
      ['approval-1', true],
      ['approval-1', false],
    ]);
  });

  it("asks in words, not with the server's default prompt (which holds the arguments as JSON)", () => {
    const message = 'Allow \'refundOrder\' to run with {"orderId":"ORD-1234"}?';
    render(<ToolCallCard part={{ ...refundWaiting, approval: { ...refundWaiting.approval!, message } }} onApproval={() => {}} />);
    expect(screen.getByRole('group', { name: 'Allow refundOrder to run?' })).toBeTruthy();
    expect(screen.queryByText(message)).toBeNull();
  });

  it("draws the app's own approval UI on the card in place of Approve / Deny, and only while the call waits", () => {
    const renderApproval = vi.fn((part: ToolCallPart) => <button type="button">{`Allow ${part.toolName} for this chat`}</button>);
    render(
      <MessageList messages={[assistant('a1', [refundWaiting, refundDeclined])]} onApproval={() => {}} renderApproval={renderApproval} />,
    );
    expect(screen.getByRole('button', { name: 'Allow refundOrder for this chat' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Deny' })).toBeNull();
    expect(renderApproval.mock.calls.map(([part]) => part.toolCallId)).toEqual([refundWaiting.toolCallId]);
  });

  it('shows no buttons once answered, or when the approval has no id', () => {
    render(<ToolCallCard part={refundDeclined} onApproval={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByTestId('tool-declined').textContent).toBe('You declined this, so refundOrder did not run.');
    cleanup();
    render(<ToolCallCard part={{ ...refundWaiting, approval: undefined }} onApproval={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByTestId('tool-state').textContent).toBe('Waiting for your approval');
  });
});

describe('the tool renderer registry', () => {
  const getWeather = toolDefinition({
    name: 'getWeather',
    description: 'Weather.',
    inputSchema: z.object({ city: z.string() }),
    outputSchema: z.object({ city: z.string(), celsius: z.number(), sky: z.string() }),
  });

  it("renders a registered tool's output with its renderer inside the card, and the generic card for the rest", () => {
    const weatherUI = makeToolUI(getWeather, ({ output, input }) => (
      <p data-testid="weather">{`${output?.celsius ?? '?'} °C, ${output?.sky ?? ''} in ${input?.city ?? ''}`}</p>
    ));
    render(<MessageList messages={[assistant('a1', [weatherDone, failed])]} tools={[weatherUI]} />);
    expect(screen.getByTestId('weather').textContent).toBe('18 °C, clear in Paris');
    const cards = screen.getAllByTestId('tool-call');
    expect(cards.map((card) => card.getAttribute('data-tool'))).toEqual(['getWeather', 'getOrder']);
    // The fallback card for the unregistered tool: its error, in words.
    expect(within(cards[1]!).getByTestId('tool-error').textContent).toBe('No order ORD-9');
  });

  it('calls the renderer only once the call is done, unless it draws the whole card', () => {
    const render1 = vi.fn(() => <span>body</span>);
    const render2 = vi.fn(({ status, respond }: { status: { label: string }; respond: ((approved: boolean) => void) | undefined }) => (
      <button type="button" onClick={() => respond?.(true)}>{`custom: ${status.label}`}</button>
    ));
    const onApproval = vi.fn();
    render(
      <MessageList messages={[assistant('a1', [refundWaiting])]} tools={[makeToolUI('refundOrder', render1)]} onApproval={onApproval} />,
    );
    expect(render1).not.toHaveBeenCalled();
    cleanup();
    render(
      <MessageList
        messages={[assistant('a1', [refundWaiting])]}
        tools={[makeToolUI('refundOrder', render2, { placement: 'card' })]}
        onApproval={onApproval}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'custom: Waiting for your approval' }));
    expect(onApproval).toHaveBeenCalledWith('approval-1', true);
    expect(screen.queryByTestId('tool-call')).toBeNull();
  });

  it('refuses two renderers for one tool and a renderer without a name', () => {
    expect(() => createToolUIRegistry([makeToolUI('a', () => null), makeToolUI('a', () => null)])).toThrow(
      'Two renderers for the tool "a"',
    );
    expect(() => makeToolUI('', () => null)).toThrow(TypeError);
  });
});

describe('toolCallStatus', () => {
  it('tells a stop from a declined call and from one skipped by a new message', () => {
    expect(toolCallStatus({ state: 'cancelled', cancelReason: 'aborted' }).label).toBe('Stopped');
    expect(toolCallStatus({ state: 'cancelled', cancelReason: 'superseded' }).label).toBe('Skipped (you sent a new message)');
    expect(
      toolCallStatus({
        state: 'cancelled',
        cancelReason: 'denied',
        approval: { id: 'x', requestedBy: 'server', approved: false, respondedBy: 'auto' },
      }).label,
    ).toBe('Declined (you sent a new message)');
    expect(toolCallStatus({ state: 'input-complete', waitingFor: 'discovery' }).label).toBe('Waiting for discovery');
  });
});

describe('Composer', () => {
  const sent = (): Promise<SendResult> => Promise.resolve({ sent: true } as SendResult);

  it('sends on Enter, adds a line on Shift+Enter, and stops on Escape while busy', () => {
    const onSend = vi.fn(sent);
    const onStop = vi.fn();
    const { rerender } = render(<Composer busy={false} onSend={onSend} onStop={onStop} />);
    const field = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(field, { target: { value: 'hello' } });
    fireEvent.keyDown(field, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('hello', []);
    rerender(<Composer busy onSend={onSend} onStop={onStop} />);
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(onStop).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
  });

  it('gives a refused message back with its reason', async () => {
    const onSend = vi.fn(() => Promise.resolve({ sent: false, error: { message: 'huge.pdf is over 10 MB' } } as SendResult));
    render(<Composer busy={false} onSend={onSend} />);
    const field = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
    fireEvent.change(field, { target: { value: 'read this' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    });
    expect(screen.getByRole('alert').textContent).toBe('huge.pdf is over 10 MB');
    expect(field.value).toBe('read this');
  });

  it('says that sending declines a waiting approval, and ties the note to the field', () => {
    render(<Composer busy={false} onSend={sent} pendingApprovals={['refundOrder']} />);
    const note = screen.getByRole('note');
    expect(note.textContent).toBe('Waiting for your approval of refundOrder. Sending a new message declines it.');
    expect(screen.getByRole('textbox', { name: 'Message' }).getAttribute('aria-describedby')).toBe(note.id);
  });
});

describe('hostile text', () => {
  it('renders markup from a tool or a user as text', () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const messages: ChatMessage[] = [
      user('u1', hostile),
      assistant('a1', [
        toolCall({
          toolName: 'echo',
          state: 'output-available',
          input: { text: hostile },
          result: { state: 'complete', output: { text: hostile }, content: '' },
        }),
      ]),
    ];
    const { container } = render(<MessageList messages={messages} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain(hostile);
  });
});
