import { useState, type FormEvent, type KeyboardEvent } from 'react';

/**
 * The message box with Send and Stop. Enter sends, Shift+Enter adds a line, Escape stops a response.
 * While an approval waits, it says that sending declines it.
 */
export function Composer(props: { busy: boolean; pendingApprovals: readonly string[]; onSend: (text: string) => void; onStop: () => void }) {
  const [text, setText] = useState('');
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (props.busy || text.trim() === '') return;
    props.onSend(text);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) submit(event);
  };
  const pending = props.pendingApprovals;
  return (
    <form className="composer" onSubmit={submit}>
      {pending.length > 0 ? (
        <p className="composer-note" id="pending-note" role="note" data-testid="pending-approval-note">
          {`Waiting for your approval of ${pending.join(', ')}. Sending a new message declines ${pending.length === 1 ? 'it' : 'them'}.`}
        </p>
      ) : null}
      <div className="composer-row">
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
          <button type="submit" disabled={text.trim() === ''}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}
