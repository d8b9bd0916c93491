import { memo } from 'react';
import type { ChatMessage } from '@chatwire/core';
import { ToolCallCard } from './ToolCallCard.tsx';

/** The conversation. Rows are memoised: a settled message keeps its identity while another streams. */
export function MessageList(props: { messages: readonly ChatMessage[]; onApproval: (id: string, approved: boolean) => void }) {
  return (
    <ol className="messages" role="log" aria-live="polite" aria-label="Conversation">
      {props.messages.map((message) => (
        <MessageRow key={message.id} message={message} onApproval={props.onApproval} />
      ))}
    </ol>
  );
}

const MessageRow = memo(function MessageRow(props: { message: ChatMessage; onApproval: (id: string, approved: boolean) => void }) {
  const { message } = props;
  return (
    <li className={`message message-${message.role}`} data-role={message.role}>
      {message.parts.map((part, index) =>
        part.type === 'text' ? (
          <p key={index} className="text" data-state={part.state}>
            {part.text}
          </p>
        ) : part.type === 'tool-call' ? (
          <ToolCallCard key={part.toolCallId} part={part} onApproval={props.onApproval} />
        ) : null,
      )}
    </li>
  );
});
