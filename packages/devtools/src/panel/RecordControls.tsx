import { useRef, useState, type ChangeEvent } from 'react';
import { MAX_CHAT_RECORD_CHARS, readChatRecord, type ChatRecord } from '@chatwire/core/shared';

/** A file's text (FileReader: every browser, and the DOM of tests). */
const readText = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(file);
  });

/** A record opened from a file, and its name. */
export interface OpenedRecord {
  readonly record: ChatRecord;
  readonly fileName: string;
}

/**
 * Save the chat's record as a file, open a saved one (devtools' or a server's run record) to
 * inspect it in place of the live chat, and go back. A file that is not a record is refused with
 * the reason; what it holds is only ever shown as text.
 */
export function RecordControls(props: {
  readonly opened: OpenedRecord | undefined;
  readonly onSave: (() => void) | undefined;
  readonly onOpen: (opened: OpenedRecord | undefined) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string>();
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    // Bytes bound the characters from above: a file over the limit is refused before it is read.
    if (file.size > MAX_CHAT_RECORD_CHARS * 4) {
      setError(`${file.name} is ${file.size} bytes: too large for a chat record.`);
      return;
    }
    let text: string;
    try {
      text = await readText(file);
    } catch {
      setError(`${file.name} could not be read.`);
      return;
    }
    const reading = readChatRecord(text);
    if (!reading.ok) {
      setError(`${file.name}: ${reading.error}`);
      return;
    }
    setError(undefined);
    props.onOpen({ record: reading.record, fileName: file.name });
  };
  const { opened } = props;
  return (
    <div className="cw-record" data-testid="devtools-record">
      {props.onSave && !opened ? (
        <button
          type="button"
          className="cw-button"
          onClick={props.onSave}
          title="Save this chat's events, snapshots and accounting as a file"
        >
          Save record
        </button>
      ) : null}
      <button type="button" className="cw-button" onClick={() => input.current?.click()} title="Open a saved chat record">
        Open record
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        aria-label="Chat record file"
        data-testid="devtools-record-file"
        hidden
        onChange={(event) => void onFile(event)}
      />
      {opened ? (
        <p className="cw-record-banner" role="status" data-testid="devtools-record-banner">
          {`Saved record ${opened.fileName} (${opened.record.source === 'server' ? 'one server run' : 'devtools'}, chat ${opened.record.chatId}, saved ${opened.record.savedAt}). `}
          <button
            type="button"
            className="cw-button"
            onClick={() => {
              setError(undefined);
              props.onOpen(undefined);
            }}
          >
            Back to live chat
          </button>
        </p>
      ) : null}
      {error ? (
        <p className="cw-record-error" role="alert" data-testid="devtools-record-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
