import { useState, type FormEvent, type KeyboardEvent } from 'react';

/** The message box with Send and Stop. Enter sends, Shift+Enter adds a line. */
export function Composer(props: { busy: boolean; onSend: (text: string) => void; onStop: () => void }) {
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
  return (
    <form className="composer" onSubmit={submit}>
      <textarea
        aria-label="Message"
        placeholder="Ask something, or name a tool…"
        value={text}
        rows={2}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {props.busy ? (
        <button type="button" className="stop" onClick={props.onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" disabled={text.trim() === ''}>
          Send
        </button>
      )}
    </form>
  );
}
