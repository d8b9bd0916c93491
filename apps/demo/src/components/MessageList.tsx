import { lazy, memo, Suspense, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { DISCOVERY_TOOL_NAME, messageText, readInputRequest, type ChatMessage, type FilePart, type InputAnswerInput } from '@chatwire/core';
import { CodeExecutionCard } from './CodeExecutionCard.tsx';
import { formatSize } from './Composer.tsx';
import { DiscoveryStep } from './DiscoveryStep.tsx';
import { InputRequestForm } from './InputRequestForm.tsx';
import { ToolCallCard } from './ToolCallCard.tsx';

/**
 * The Markdown renderer (streamdown and its parsers, about 160 kB gzipped) loads in its own chunk
 * as soon as the page has started, off the initial load; until it arrives an answer shows as text.
 */
const loadMarkdown = () => import('./Markdown.tsx').then((module) => ({ default: module.Markdown }));
const Markdown = lazy(loadMarkdown);
if (typeof window !== 'undefined') setTimeout(() => void loadMarkdown(), 0);

/** What the conversation can ask of the chat. Pass stable functions: rows are memoised on them. */
export interface MessageActions {
  onApproval: (id: string, approved: boolean) => void;
  /** Answers a server tool's request for input (accept with content, decline, cancel); rejects when refused. */
  onInputAnswer: (answer: InputAnswerInput) => Promise<void>;
  onRegenerate: () => void;
  /** Replaces a user message's text and runs the conversation again from it. */
  onEdit: (messageId: string, text: string) => void;
  /** Opens the notes and to-do panel (on narrow screens it is a drawer). */
  onShowPanel: () => void;
}

/** The conversation. Rows are memoised: a settled message keeps its identity while another streams. */
export function MessageList(props: {
  messages: readonly ChatMessage[];
  busy: boolean;
  /** Ids of messages whose answer the user stopped. */
  stopped: ReadonlySet<string>;
  actions: MessageActions;
}) {
  const last = props.messages[props.messages.length - 1];
  return (
    <ol className="messages" role="log" aria-live="polite" aria-label="Conversation">
      {props.messages.map((message) => (
        <MessageRow
          key={message.id}
          message={message}
          isLast={message === last}
          busy={props.busy}
          stopped={props.stopped.has(message.id)}
          actions={props.actions}
        />
      ))}
    </ol>
  );
}

const MessageRow = memo(function MessageRow(props: { message: ChatMessage; isLast: boolean; busy: boolean; stopped: boolean; actions: MessageActions }) {
  const { message } = props;
  return (
    <li className={`message message-${message.role}`} data-role={message.role} data-stopped={props.stopped || undefined}>
      {message.role === 'user' ? (
        <UserMessage message={message} busy={props.busy} onEdit={props.actions.onEdit} />
      ) : (
        <AssistantMessage {...props} />
      )}
      {props.stopped ? (
        <p className="stopped-mark" data-testid="stopped-mark">
          {message.role === 'user' ? 'Stopped before an answer arrived' : 'Stopped: this answer was cut off'}
        </p>
      ) : null}
    </li>
  );
});

function AssistantMessage(props: { message: ChatMessage; isLast: boolean; busy: boolean; actions: MessageActions }) {
  const { message, actions } = props;
  const streaming = props.isLast && props.busy;
  const text = messageText(message);
  return (
    <>
      {message.parts.map((part, index) => {
        switch (part.type) {
          case 'text':
            return (
              <div key={index} className="text" data-state={part.state}>
                <Suspense fallback={<p className="user-text">{part.text}</p>}>
                  <Markdown text={part.text} streaming={part.state === 'streaming'} />
                </Suspense>
              </div>
            );
          case 'reasoning':
            // The model's thinking stays folded away; it opens on demand.
            return (
              <details key={index} className="reasoning" data-testid="reasoning" data-state={part.state}>
                <summary>{part.state === 'streaming' ? 'Thinking…' : 'Thought process'}</summary>
                <p className="reasoning-text">{part.text}</p>
              </details>
            );
          case 'tool-call':
            // Code Mode's two tools have their own parts: the lookup of APIs, and the code with what it did.
            if (part.toolName === DISCOVERY_TOOL_NAME || part.toolName === 'discover_tools') return <DiscoveryStep key={part.toolCallId} part={part} />;
            if (part.toolName === 'execute_typescript') return <CodeExecutionCard key={part.toolCallId} part={part} />;
            return <ToolCallCard key={part.toolCallId} part={part} onApproval={actions.onApproval} onShowPanel={actions.onShowPanel} />;
          case 'interrupt': {
            // A server tool asking for input (the demo's bookTable, an MCP server's elicitation): a form from its schema.
            const request = readInputRequest(part);
            return request ? <InputRequestForm key={part.id} request={request} onAnswer={actions.onInputAnswer} /> : null;
          }
          default:
            return null;
        }
      })}
      {streaming ? null : (
        <div className="message-actions" role="group" aria-label="Answer actions">
          {text.trim() ? <CopyButton text={text} /> : null}
          {props.isLast ? (
            <button type="button" className="action" onClick={actions.onRegenerate}>
              Regenerate
            </button>
          ) : null}
        </div>
      )}
    </>
  );
}

/** Copies an answer's text (its Markdown source) and says so. */
function CopyButton(props: { text: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2_000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    // The clipboard needs a secure context and the page's focus; say so when it refuses.
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard) return setState('failed');
    clipboard.writeText(props.text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <button type="button" className="action" onClick={copy} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}

/** A user message, with Edit: change the text and run the conversation again from there. */
function UserMessage(props: { message: ChatMessage; busy: boolean; onEdit: (messageId: string, text: string) => void }) {
  const text = messageText(props.message);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (draft !== undefined) field.current?.focus();
  }, [draft !== undefined]); // eslint-disable-line react-hooks/exhaustive-deps -- focus once, when editing starts
  if (draft === undefined) {
    const files = props.message.parts.filter((part): part is FilePart => part.type === 'file');
    return (
      <>
        {files.length > 0 ? <Attachments files={files} /> : null}
        {text ? <p className="text user-text">{text}</p> : null}
        <div className="message-actions" role="group" aria-label="Message actions">
          <button type="button" className="action" onClick={() => setDraft(text)} disabled={props.busy}>
            Edit
          </button>
        </div>
      </>
    );
  }
  const save = (event?: FormEvent) => {
    event?.preventDefault();
    if (draft.trim() === '' || props.busy) return;
    props.onEdit(props.message.id, draft);
    setDraft(undefined);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      // Escape cancels the edit here; it must not also stop a response.
      event.stopPropagation();
      setDraft(undefined);
    } else if (event.key === 'Enter' && !event.shiftKey) save(event);
  };
  return (
    <form className="edit" onSubmit={save}>
      <textarea ref={field} aria-label="Edit message" value={draft} rows={3} onChange={(event) => setDraft(event.target.value)} onKeyDown={onKeyDown} />
      <p className="edit-note">Messages after this one are replaced by the new answer.</p>
      <div className="message-actions">
        <button type="button" className="action" onClick={() => setDraft(undefined)}>
          Cancel
        </button>
        <button type="submit" className="action action-primary" disabled={draft.trim() === '' || props.busy}>
          Save and send
        </button>
      </div>
    </form>
  );
}

/**
 * The files of a user message: images as thumbnails, others by name and size. The URL is the user's own
 * file (a data: URL) or what the app's upload hook returned; it is only ever an image source or a link.
 */
function Attachments(props: { files: readonly FilePart[] }) {
  return (
    <ul className="message-files" aria-label="Attachments" data-testid="message-files">
      {props.files.map((file, index) => (
        <li key={index} className="message-file" data-mime={file.mimeType}>
          {file.mimeType.startsWith('image/') ? (
            <img src={file.url} alt={file.filename ?? 'attached image'} className="message-image" />
          ) : (
            <span className="attachment-chip">
              <span className="attachment-name">{file.filename ?? file.mimeType}</span>
              {file.size === undefined ? null : <span className="attachment-size">{formatSize(file.size)}</span>}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
