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

/** The smallest chat: messages, each tool call's progress, Approve for calls that need it. */
export function Chat() {
  const chat = useChat({ api: '/api/chat', tools });
  const [text, setText] = useState('');
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
            const approval = part.state === 'approval-requested' ? part.approval : undefined;
            return (
              <p key={part.toolCallId}>
                {part.toolName}: {part.state === 'output-available' ? 'done' : 'working…'}
                {approval && (
                  <button type="button" onClick={() => chat.addToolApprovalResponse({ id: approval.id, approved: true })}>
                    Approve
                  </button>
                )}
              </p>
            );
          })}
        </div>
      ))}
      <input aria-label="Message" value={text} onChange={(event) => setText(event.target.value)} />
      <button disabled={chat.status === 'submitted' || chat.status === 'streaming'}>Send</button>
      <output data-testid="status">{chat.status}</output>
    </form>
  );
}
