import type { ChatMessage, ToolCallPart } from '@chatwire/core';
import { ChatwireDevtools } from '@chatwire/devtools';
import { useChat } from '@chatwire/react';
import { useState, type FormEvent } from 'react';
import { setTheme, type Theme } from '../shared/tools.ts';

/** A chat page: streamed answers, tool calls with their state, Approve / Deny for sensitive calls. */
export function App() {
  const [theme, applyTheme] = useState<Theme>('light');
  // The browser tool's implementation: the model calls it, the page runs it. Created once.
  const [tools] = useState(() => [
    setTheme.client(({ theme }) => {
      applyTheme(theme);
      return { theme };
    }),
  ]);
  const chat = useChat({ api: '/api/chat', tools });
  const [text, setText] = useState('');
  const busy = chat.status === 'submitted' || chat.status === 'streaming';

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (busy || text.trim() === '') return;
    void chat.sendMessage(text);
    setText('');
  };

  return (
    <main className="app" data-theme={theme}>
      <h1>Chat</h1>
      <ol className="messages" aria-label="Conversation">
        {chat.messages.map((message) => (
          <Message key={message.id} message={message} onApproval={(id, approved) => chat.addToolApprovalResponse({ id, approved })} />
        ))}
      </ol>
      {chat.error ? (
        <p role="alert" className="error">
          {chat.error.message}
        </p>
      ) : null}
      <form onSubmit={send}>
        <input aria-label="Message" placeholder='Try "use setTheme dark"' value={text} onChange={(event) => setText(event.target.value)} />
        {busy ? (
          <button type="button" onClick={chat.stop}>
            Stop
          </button>
        ) : (
          <button type="submit">Send</button>
        )}
      </form>
      <p className="status">
        Status: <span data-testid="status">{chat.status}</span>
      </p>
      {/* The devtools panel in development; renders nothing (and ships no panel code) in production builds. */}
      <ChatwireDevtools client={chat.client} />
    </main>
  );
}

function Message(props: { message: ChatMessage; onApproval: (id: string, approved: boolean) => void }) {
  const { message } = props;
  return (
    <li className={`message ${message.role}`} data-role={message.role}>
      {message.parts.map((part, index) => {
        switch (part.type) {
          case 'text':
            // Text is rendered as text, never as HTML.
            return (
              <p key={index} data-state={part.state}>
                {part.text}
              </p>
            );
          case 'tool-call':
            return <ToolCall key={part.toolCallId} part={part} onApproval={props.onApproval} />;
          case 'reasoning':
            return (
              <details key={index}>
                <summary>Thinking…</summary>
                <p>{part.text}</p>
              </details>
            );
          default:
            // Activity, interrupt and subagent parts: this small app shows none of them.
            return null;
        }
      })}
    </li>
  );
}

function ToolCall(props: { part: ToolCallPart; onApproval: (id: string, approved: boolean) => void }) {
  const { part } = props;
  const approval = part.state === 'approval-requested' ? part.approval : undefined;
  return (
    <div className="tool-call" data-tool={part.toolName} data-state={part.state}>
      <strong>{part.toolName}</strong> <code>{part.state}</code>
      {part.input !== undefined ? <pre>{JSON.stringify(part.input)}</pre> : null}
      {approval ? (
        <span>
          <button type="button" onClick={() => props.onApproval(approval.id, true)}>
            Approve
          </button>
          <button type="button" onClick={() => props.onApproval(approval.id, false)}>
            Deny
          </button>
        </span>
      ) : null}
      {part.state === 'output-available' && part.result ? <pre data-testid="tool-result">{JSON.stringify(part.result.output ?? part.result.content)}</pre> : null}
      {part.result?.error ? <p className="error">{part.result.error}</p> : null}
    </div>
  );
}
