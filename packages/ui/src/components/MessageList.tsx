import { Fragment, memo, useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import {
  MCP_APP_EVENT,
  TOOL_PROGRESS_EVENT,
  mcpAppsByCall,
  messageText,
  type ChatMessage,
  type FilePart,
  type MessagePart,
  type ToolCallPart,
} from '@chatwire/core';
import type { McpAppsOptions } from '../mcpApps/mcpAppsOptions.js';
import { createToolUIRegistry, type ToolUI, type ToolUIRegistry } from '../registry/toolUI.js';
import { Attachments } from './Attachments.js';
import { MessageText, preloadMarkdown } from './MessageText.js';
import { ToolPart, type DiscoveryDisplay } from './ToolPart.js';
import { toolProgressByCall } from '../vocabulary.js';

/** Props of {@link MessageList}. Pass stable values (functions, `tools`): rows are memoised on them. */
export interface MessageListProps {
  messages: readonly ChatMessage[];
  /** True while an answer streams (`status` is `submitted` or `streaming`). */
  busy?: boolean;
  /** Renderers by tool name (`makeToolUI` results, or a registry); other tools get the generic card. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  tools?: readonly ToolUI<string, any, any>[] | ToolUIRegistry;
  /** How discovery steps show. Defaults to `step`. */
  discovery?: DiscoveryDisplay;
  /**
   * MCP Apps: the chat they act through and how they show (see {@link McpAppsOptions}). A call whose
   * MCP server sent an app shows it in a sandboxed frame, unless `tools` has a renderer for the tool.
   * Defaults to none: such calls render as cards.
   */
  apps?: McpAppsOptions;
  /** Answers an approval (for example `(id, approved) => chat.addToolApprovalResponse({ id, approved })`). */
  onApproval?: (approvalId: string, approved: boolean) => void;
  /**
   * Draws the approval of a call that waits for one, on its card, in place of Approve / Deny: for
   * example with the server's grant options ("allow for this chat") or an arguments editor. So each
   * waiting call has one approval UI, on its card. Defaults to Approve / Deny (`onApproval`).
   */
  renderApproval?: (part: ToolCallPart) => ReactNode;
  /** Shows Regenerate under the last answer. */
  onRegenerate?: () => void;
  /** Shows Edit on user messages: the new text replaces the message and the conversation runs again from it. */
  onEdit?: (messageId: string, text: string) => void;
  /** Ids of messages whose answer the user stopped: they carry a "Stopped" marker. */
  stopped?: ReadonlySet<string>;
  /** Shown when there are no messages. */
  empty?: ReactNode;
  /**
   * Draws the parts the list does not draw itself (interrupts such as a server tool's request for input,
   * data parts, activity); return nothing to leave one out. Defaults to leaving them out.
   */
  renderPart?: (part: MessagePart, message: ChatMessage) => ReactNode;
  /**
   * Draws something at the end of a message's row, for example a `BranchPicker` on an edited or
   * regenerated message. Pass a new function when what it draws changes (rows are memoised on it).
   * Defaults to nothing.
   */
  renderMessageEnd?: (message: ChatMessage) => ReactNode;
}

interface RowOptions {
  tools: ToolUIRegistry | undefined;
  apps: McpAppsOptions | undefined;
  discovery: DiscoveryDisplay | undefined;
  onApproval: ((approvalId: string, approved: boolean) => void) | undefined;
  renderApproval: ((part: ToolCallPart) => ReactNode) | undefined;
  onRegenerate: (() => void) | undefined;
  onEdit: ((messageId: string, text: string) => void) | undefined;
  renderPart: ((part: MessagePart, message: ChatMessage) => ReactNode) | undefined;
  renderMessageEnd: ((message: ChatMessage) => ReactNode) | undefined;
}

/**
 * The conversation: an ordered list with `role="log"` (new messages are announced politely), one
 * row per message. User messages show their files and text (and Edit); assistant messages show
 * Markdown, folded reasoning, tool calls by tool name through the registry, discovery steps, Code
 * Mode executions, and Copy / Regenerate. A settled row keeps its identity while another streams.
 */
export function MessageList(props: MessageListProps) {
  useEffect(preloadMarkdown, []);
  const { tools } = props;
  const registry = useMemo(
    () => (tools === undefined ? undefined : tools instanceof Map ? tools : createToolUIRegistry(tools as readonly ToolUI[])),
    [tools],
  );
  const options = useMemo<RowOptions>(
    () => ({
      tools: registry,
      apps: props.apps,
      discovery: props.discovery,
      onApproval: props.onApproval,
      renderApproval: props.renderApproval,
      onRegenerate: props.onRegenerate,
      onEdit: props.onEdit,
      renderPart: props.renderPart,
      renderMessageEnd: props.renderMessageEnd,
    }),
    [
      registry,
      props.apps,
      props.discovery,
      props.onApproval,
      props.renderApproval,
      props.onRegenerate,
      props.onEdit,
      props.renderPart,
      props.renderMessageEnd,
    ],
  );
  const last = props.messages[props.messages.length - 1];
  if (props.messages.length === 0 && props.empty !== undefined) return <>{props.empty}</>;
  return (
    <ol className="cw-messages" role="log" aria-live="polite" aria-label="Conversation">
      {props.messages.map((message) => (
        <MessageRow
          key={message.id}
          message={message}
          isLast={message === last}
          busy={props.busy ?? false}
          stopped={props.stopped?.has(message.id) ?? false}
          options={options}
        />
      ))}
    </ol>
  );
}

const MessageRow = memo(function MessageRow(props: {
  message: ChatMessage;
  isLast: boolean;
  busy: boolean;
  stopped: boolean;
  options: RowOptions;
}) {
  const { message } = props;
  return (
    <li className={`cw-message cw-message-${message.role}`} data-role={message.role} data-stopped={props.stopped || undefined}>
      {message.role === 'user' ? (
        <UserMessage message={message} busy={props.busy} onEdit={props.options.onEdit} />
      ) : (
        <AssistantMessage {...props} />
      )}
      {props.stopped ? (
        <p className="cw-stopped" data-testid="stopped-mark">
          {message.role === 'user' ? 'Stopped before an answer arrived' : 'Stopped: this answer was cut off'}
        </p>
      ) : null}
      {props.options.renderMessageEnd?.(message)}
    </li>
  );
});

function AssistantMessage(props: { message: ChatMessage; isLast: boolean; busy: boolean; options: RowOptions }) {
  const { message, options } = props;
  const streaming = props.isLast && props.busy;
  const text = messageText(message);
  // Progress reports (data parts) are drawn on their call's card, not on their own.
  const progress = useMemo(() => toolProgressByCall(message.parts), [message.parts]);
  // So are MCP Apps: each in its call's card.
  const apps = useMemo(() => (options.apps ? mcpAppsByCall(message.parts) : undefined), [options.apps, message.parts]);
  return (
    <>
      {message.parts.map((part, index) => {
        switch (part.type) {
          case 'text':
            return <MessageText key={index} text={part.text} streaming={part.state === 'streaming'} />;
          case 'reasoning':
            // The model's thinking stays folded away; it opens on demand.
            return (
              <details key={index} className="cw-reasoning" data-testid="reasoning" data-state={part.state}>
                <summary>{part.state === 'streaming' ? 'Thinking…' : 'Thought process'}</summary>
                <p className="cw-reasoning-text">{part.text}</p>
              </details>
            );
          case 'tool-call':
            return (
              <ToolPart
                key={part.toolCallId}
                part={part}
                tools={options.tools}
                discovery={options.discovery}
                onApproval={options.onApproval}
                renderApproval={options.renderApproval}
                progress={progress.get(part.toolCallId)}
                app={apps?.get(part.toolCallId)}
                apps={options.apps}
              />
            );
          case 'file':
            return <Attachments key={index} files={[part]} />;
          default:
            if (part.type === 'data' && (part.name === TOOL_PROGRESS_EVENT || part.name === MCP_APP_EVENT)) return null;
            return options.renderPart ? <Fragment key={index}>{options.renderPart(part, message)}</Fragment> : null;
        }
      })}
      {streaming ? null : (
        <div className="cw-message-actions" role="group" aria-label="Answer actions">
          {text.trim() ? <CopyButton text={text} /> : null}
          {props.isLast && options.onRegenerate ? (
            <button type="button" className="cw-action" onClick={options.onRegenerate}>
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
    <button type="button" className="cw-action" onClick={copy} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}

/** A user message, with Edit when the list has `onEdit`: change the text and run the conversation again from there. */
function UserMessage(props: { message: ChatMessage; busy: boolean; onEdit: ((messageId: string, text: string) => void) | undefined }) {
  const text = messageText(props.message);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const field = useRef<HTMLTextAreaElement>(null);
  const editing = draft !== undefined;
  useEffect(() => {
    if (editing) field.current?.focus();
  }, [editing]);
  const { onEdit } = props;
  if (draft === undefined || !onEdit) {
    const files = props.message.parts.filter((part): part is FilePart => part.type === 'file');
    return (
      <>
        {files.length > 0 ? <Attachments files={files} /> : null}
        {text ? <MessageText text={text} markdown={false} /> : null}
        {onEdit ? (
          <div className="cw-message-actions" role="group" aria-label="Message actions">
            <button type="button" className="cw-action" onClick={() => setDraft(text)} disabled={props.busy}>
              Edit
            </button>
          </div>
        ) : null}
      </>
    );
  }
  const save = (event?: FormEvent) => {
    event?.preventDefault();
    if (draft.trim() === '' || props.busy) return;
    onEdit(props.message.id, draft);
    setDraft(undefined);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      // Escape cancels the edit here; it must not also stop a response.
      event.stopPropagation();
      event.preventDefault();
      setDraft(undefined);
    } else if (event.key === 'Enter' && !event.shiftKey) save(event);
  };
  return (
    <form className="cw-edit" onSubmit={save}>
      <textarea
        ref={field}
        aria-label="Edit message"
        value={draft}
        rows={3}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <p className="cw-edit-note">Messages after this one are replaced by the new answer.</p>
      <div className="cw-message-actions">
        <button type="button" className="cw-action" onClick={() => setDraft(undefined)}>
          Cancel
        </button>
        <button type="submit" className="cw-action cw-action-primary" disabled={draft.trim() === '' || props.busy}>
          Save and send
        </button>
      </div>
    </form>
  );
}
