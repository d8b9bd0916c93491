import { useCallback, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { SendResult } from '@chatwire/core';

/** Options of {@link useComposer}. */
export interface UseComposerOptions {
  /** True while an answer streams: sending waits, Escape stops. */
  busy: boolean;
  /** Sends the message; a result with `sent: false` gives the text and files back with its reason. */
  onSend: (text: string, files: readonly File[]) => Promise<SendResult> | void;
  /** Stops the answer (Escape in the field, or the Stop button). */
  onStop?: () => void;
}

/** What {@link useComposer} returns: the draft, and handlers for a form, a field and a file input. */
export interface ComposerState {
  text: string;
  setText: (text: string) => void;
  files: readonly File[];
  addFiles: (files: readonly File[]) => void;
  removeFile: (index: number) => void;
  /** Why the last send was refused (the draft was given back); undefined otherwise. */
  refusal: string | undefined;
  canSend: boolean;
  /** For the form's `onSubmit`. */
  submit: (event?: FormEvent) => void;
  /** For the field's `onKeyDown`: Enter sends, Shift+Enter adds a line, Escape stops an answer. */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement | HTMLInputElement>) => void;
}

/**
 * The composer's behaviour without its markup: the draft text and files, Enter to send (Shift+Enter
 * for a new line), Escape to stop, and a refused send that keeps the draft and says why. Use it to
 * build your own composer; {@link Composer} is built on it.
 */
export function useComposer(options: UseComposerOptions): ComposerState {
  const { busy, onSend, onStop } = options;
  const [text, setText] = useState('');
  const [files, setFiles] = useState<readonly File[]>([]);
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const canSend = !busy && (text.trim() !== '' || files.length > 0);
  const submit = useCallback(
    (event?: FormEvent) => {
      event?.preventDefault();
      if (!canSend) return;
      const sent = { text, files };
      setText('');
      setFiles([]);
      setRefusal(undefined);
      const result = onSend(sent.text, sent.files);
      if (!result) return;
      void result.then((outcome) => {
        if (outcome.sent) return;
        // Nothing was sent: give the message back as it was, with the reason.
        setText((current) => (current === '' ? sent.text : current));
        setFiles((current) => (current.length === 0 ? sent.files : current));
        setRefusal(outcome.error.message);
      });
    },
    [canSend, text, files, onSend],
  );
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLTextAreaElement | HTMLInputElement>) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
      else if (event.key === 'Escape' && busy && onStop) {
        event.preventDefault();
        onStop();
      }
    },
    [submit, busy, onStop],
  );
  return {
    text,
    setText,
    files,
    addFiles: (picked) => {
      setFiles((current) => [...current, ...picked]);
      setRefusal(undefined);
    },
    removeFile: (index) => setFiles((current) => current.filter((_, i) => i !== index)),
    refusal,
    canSend,
    submit,
    onKeyDown,
  };
}
