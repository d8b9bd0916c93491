import { useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import type { SendResult } from '@chatwire/core';

/** What the demo accepts as attachments (what the adapters can send as AG-UI media parts). */
const ACCEPT = 'image/*,application/pdf,text/plain';

/**
 * The message box with Attach, Send and Stop. Enter sends, Shift+Enter adds a line, Escape stops a
 * response. While an approval waits, it says that sending declines it. Attached files are listed
 * (each removable) and go with the next message; a refused send keeps the text and the files and says why.
 */
export function Composer(props: {
  busy: boolean;
  pendingApprovals: readonly string[];
  onSend: (text: string, files: readonly File[]) => Promise<SendResult>;
  onStop: () => void;
}) {
  const [text, setText] = useState('');
  const [files, setFiles] = useState<readonly File[]>([]);
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const picker = useRef<HTMLInputElement>(null);
  const canSend = !props.busy && (text.trim() !== '' || files.length > 0);
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    const sent = { text, files };
    setText('');
    setFiles([]);
    setRefusal(undefined);
    void props.onSend(sent.text, sent.files).then((result) => {
      if (result.sent) return;
      // Nothing was sent: give the message back as it was, with the reason.
      setText((current) => (current === '' ? sent.text : current));
      setFiles((current) => (current.length === 0 ? sent.files : current));
      setRefusal(result.error.message);
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) submit(event);
  };
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? []);
    event.target.value = ''; // the same file can be picked again after it was removed
    setFiles((current) => [...current, ...picked]);
    setRefusal(undefined);
  };
  const pending = props.pendingApprovals;
  return (
    <form className="composer" onSubmit={submit}>
      {pending.length > 0 ? (
        <p className="composer-note" id="pending-note" role="note" data-testid="pending-approval-note">
          {`Waiting for your approval of ${pending.join(', ')}. Sending a new message declines ${pending.length === 1 ? 'it' : 'them'}.`}
        </p>
      ) : null}
      {refusal ? (
        <p className="composer-note composer-refusal" role="alert" data-testid="send-refused">
          {refusal}
        </p>
      ) : null}
      {files.length > 0 ? (
        <ul className="attachments" aria-label="Attached files" data-testid="composer-files">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="attachment-chip">
              <span className="attachment-name">{file.name}</span>
              <span className="attachment-size">{formatSize(file.size)}</span>
              <button type="button" className="action" aria-label={`Remove ${file.name}`} onClick={() => setFiles((current) => current.filter((_, i) => i !== index))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="composer-row">
        <input ref={picker} type="file" accept={ACCEPT} multiple hidden data-testid="file-input" onChange={onPick} />
        <button type="button" className="attach" aria-label="Attach files" title="Attach images, PDFs or text files" onClick={() => picker.current?.click()}>
          +
        </button>
        <textarea
          aria-label="Message"
          aria-describedby={pending.length > 0 ? 'pending-note' : undefined}
          placeholder="Ask something, or name a tool…"
          value={text}
          rows={2}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {props.busy ? (
          <button type="button" className="stop" onClick={props.onStop} title="Stop (Esc)">
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!canSend}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}

/** A file size as people read it: bytes, KB or MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
