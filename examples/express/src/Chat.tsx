import { DISCOVERY_TOOL_NAME, type ToolCallPart } from '@chatwire/core';
import { useChat } from '@chatwire/react';
import { useState } from 'react';
import { setTheme } from './tools.ts';

// Browser tools run in the page: made once, at module level.
const tools = [
  setTheme.client(({ theme }) => {
    document.documentElement.dataset['theme'] = theme;
    return { theme };
  }),
];

/** A call's state in words. */
const stateOf = (part: ToolCallPart) =>
  part.approval?.approved === false
    ? 'declined'
    : part.state === 'output-available'
      ? 'done'
      : part.state === 'output-error'
        ? 'failed'
        : part.state === 'cancelled'
          ? 'stopped'
          : 'working…';

/**
 * The README's page, the smallest chat: messages, each tool call's state, the discovery step, Approve / Deny. For the
 * whole UI (Markdown, tool cards, approvals with grants, a composer) use @chatwire/ui (docs/components.md).
 */
export function Chat() {
  const chat = useChat({ api: '/api/chat', tools });
  const [text, setText] = useState('');
  const answer = (id: string, approved: boolean) => chat.addToolApprovalResponse({ id, approved });
  const waiting = chat.pendingApprovals.length > 0;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void chat.sendMessage(text);
        setText('');
      }}
    >
      {chat.messages.map((message) => (
        <div key={message.id} data-role={message.role}>
          {message.parts.map((part, index) => {
            if (part.type === 'text') return <p key={index}>{part.text}</p>;
            if (part.type !== 'tool-call') return null;
            // A lazy tool's discovery: a step of the answer, not one of your tools.
            if (part.toolName === DISCOVERY_TOOL_NAME)
              return (
                <p key={part.toolCallId}>
                  <small>{part.state === 'output-available' ? 'Tools found' : 'Finding tools…'}</small>
                </p>
              );
            const approval = part.state === 'approval-requested' ? part.approval : undefined;
            if (approval)
              return (
                <p key={part.toolCallId}>
                  Allow {part.toolName}?{' '}
                  <button type="button" onClick={() => answer(approval.id, true)}>
                    Approve
                  </button>{' '}
                  <button type="button" onClick={() => answer(approval.id, false)}>
                    Deny
                  </button>
                </p>
              );
            return (
              <p key={part.toolCallId}>
                {part.toolName}: {stateOf(part)}
              </p>
            );
          })}
        </div>
      ))}
      <input aria-label="Message" value={text} onChange={(event) => setText(event.target.value)} />
      <button disabled={chat.status === 'submitted' || chat.status === 'streaming'}>Send</button>
      <output data-testid="status">{waiting ? 'waiting for your approval' : chat.status}</output>
    </form>
  );
}
