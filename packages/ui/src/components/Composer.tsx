import { Suspense, lazy, useId, useRef, type ChangeEvent } from 'react';
import type { SendResult } from '@chatwire/core';
import { useComposer } from '../primitives/useComposer.js';
import { formatSize } from '../vocabulary.js';

/** Props of {@link Composer}. */
export interface ComposerProps {
  /** True while an answer streams: Send becomes Stop. */
  busy: boolean;
  /** Sends the message (for example `(text, files) => chat.sendMessage(files.length ? { text, files } : text)`). */
  onSend: (text: string, files: readonly File[]) => Promise<SendResult> | void;
  /** Stops the answer (the Stop button, or Escape in the field). */
  onStop?: () => void;
  /** Names of tools waiting for approval: the composer says that sending declines them. */
  pendingApprovals?: readonly string[];
  /** What the file picker accepts; `false` hides Attach. Defaults to images, PDFs and plain text. */
  accept?: string | false;
  /** Defaults to "Ask something…". */
  placeholder?: string;
  /**
   * MCP resources and prompts from the MCP handler (`createMcpAuthHandler`) at `endpoint` (defaults
   * to `/api/mcp`): "Attach a resource" beside Attach, and the servers' prompts as slash commands
   * (type `/`). Defaults to neither.
   */
  mcp?: { readonly endpoint?: string };
}

// MCP's picker and slash commands load the first time a composer with `mcp` renders: a chat without them pays nothing.
const ComposerMcp = lazy(() => import('../mcp/composerMcp.js'));

/**
 * The message box: Attach, the field, Send (Stop while an answer streams). Enter sends, Shift+Enter
 * adds a line, Escape stops. Attached files are listed, each removable; a refused send keeps the
 * text and files and says why (`role="alert"`). With `mcp`, the user's MCP servers' resources attach
 * as files and their prompts are slash commands. Built on {@link useComposer}.
 */
export function Composer(props: ComposerProps) {
  const composer = useComposer({ busy: props.busy, onSend: props.onSend, ...(props.onStop ? { onStop: props.onStop } : {}) });
  const picker = useRef<HTMLInputElement>(null);
  const noteId = useId();
  const pending = props.pendingApprovals ?? [];
  const accept = props.accept ?? 'image/*,application/pdf,text/plain';
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = ''; // the same file can be picked again after it was removed
    composer.addFiles(picked);
  };
  return (
    <form className="cw-composer" onSubmit={composer.submit}>
      {pending.length > 0 ? (
        <p className="cw-composer-note" id={noteId} role="note" data-testid="pending-approval-note">
          {`Waiting for your approval of ${pending.join(', ')}. Sending a new message declines ${pending.length === 1 ? 'it' : 'them'}.`}
        </p>
      ) : null}
      {composer.refusal ? (
        <p className="cw-composer-note cw-composer-refusal" role="alert" data-testid="send-refused">
          {composer.refusal}
        </p>
      ) : null}
      {composer.files.length > 0 ? (
        <ul className="cw-files" aria-label="Attached files" data-testid="composer-files">
          {composer.files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="cw-chip">
              <span className="cw-chip-name">{file.name}</span>
              <span className="cw-chip-size">{formatSize(file.size)}</span>
              <button
                type="button"
                className="cw-chip-remove"
                aria-label={`Remove ${file.name}`}
                onClick={() => composer.removeFile(index)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {props.mcp ? (
        <Suspense fallback={null}>
          <ComposerMcp
            part="prompts"
            text={composer.text}
            onFill={composer.setText}
            {...(props.mcp.endpoint ? { endpoint: props.mcp.endpoint } : {})}
          />
        </Suspense>
      ) : null}
      <div className="cw-composer-row">
        {accept === false ? null : (
          <>
            <input ref={picker} type="file" accept={accept} multiple hidden data-testid="file-input" onChange={onPick} />
            <button
              type="button"
              className="cw-attach"
              aria-label="Attach files"
              title="Attach files"
              onClick={() => picker.current?.click()}
            >
              +
            </button>
          </>
        )}
        {props.mcp ? (
          <Suspense fallback={null}>
            <ComposerMcp
              part="resources"
              onAttach={composer.addFiles}
              formatSize={formatSize}
              {...(props.mcp.endpoint ? { endpoint: props.mcp.endpoint } : {})}
            />
          </Suspense>
        ) : null}
        <textarea
          aria-label="Message"
          aria-describedby={pending.length > 0 ? noteId : undefined}
          placeholder={props.placeholder ?? 'Ask something…'}
          value={composer.text}
          rows={2}
          onChange={(event) => composer.setText(event.target.value)}
          onKeyDown={composer.onKeyDown}
        />
        {props.busy && props.onStop ? (
          <button type="button" className="cw-stop" onClick={props.onStop} title="Stop (Esc)">
            Stop
          </button>
        ) : (
          <button type="submit" className="cw-send" disabled={!composer.canSend}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}
