import { memo } from 'react';
import type { ChatMessage } from '@chatwire/core';

/** The conversation. Rows are memoised: a settled message keeps its identity while another streams. */
export function MessageList(props: { messages: readonly ChatMessage[] }) {
  return (
    <ol className="messages" role="log" aria-live="polite" aria-label="Conversation">
      {props.messages.map((message) => (
        <MessageRow key={message.id} message={message} />
      ))}
    </ol>
  );
}

const MessageRow = memo(function MessageRow({ message }: { message: ChatMessage }) {
  return (
    <li className={`message message-${message.role}`} data-role={message.role}>
      {message.parts.map((part, index) =>
        part.type === 'text' ? (
          <p key={index} className="text" data-state={part.state}>
            {part.text}
          </p>
        ) : null,
      )}
    </li>
  );
});
