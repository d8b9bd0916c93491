import { ChatwireError } from '../base/errors.js';
import type { ChatStore } from './chatStore.js';
import type { SendMessageInput, SendOptions, SendResult } from './commandInputs.js';

/**
 * The send queue of `ChatClient({ queue: true })`: messages sent while a response is in progress
 * wait in `snapshot.queued` and go one at a time, in order, each once the previous turn finished.
 * The client loads this module with the first queued message, so apps without a queue never do.
 */
export class SendQueue {
  readonly #store: ChatStore;
  readonly #busy: () => boolean;
  readonly #send: (input: SendMessageInput, options: SendOptions | undefined, id: string) => Promise<SendResult>;
  /** What each queued message was sent with, and whom to tell how it went (the snapshot holds what the UI shows). */
  readonly #entries = new Map<
    string,
    { readonly input: SendMessageInput; readonly options: SendOptions | undefined; readonly resolve: (result: SendResult) => void }
  >();

  /**
   * @param store The client's store (the queue lives in its snapshot, `queued`).
   * @param busy Whether a turn (or the reading of a message's files) is in progress.
   * @param send Sends a message now, as the user message `id`.
   */
  constructor(
    store: ChatStore,
    busy: () => boolean,
    send: (input: SendMessageInput, options: SendOptions | undefined, id: string) => Promise<SendResult>,
  ) {
    this.#store = store;
    this.#busy = busy;
    this.#send = send;
  }

  /**
   * Queues a message that will be the user message `id`; resolves as its own `sendMessage` would
   * once it was sent and came to rest, or when it is cancelled.
   */
  add(input: SendMessageInput, options: SendOptions | undefined, id: string): Promise<SendResult> {
    const { text = '', files } = input;
    return new Promise((resolve) => {
      this.#entries.set(id, { input, options, resolve });
      const store = this.#store;
      store.dispatch({
        type: 'queue',
        queued: [...store.getSnapshot().queued, { id, text, ...(files ? { files: Array.from(files) } : {}), createdAt: Date.now() }],
      });
      // A queue paused by a stopped or failed turn goes on with the next send.
      this.drain();
    });
  }

  /** Takes a message out of the queue; `false` when it is no longer there. */
  cancel(id: string): boolean {
    const entry = this.#entries.get(id);
    if (!entry) return false;
    this.#remove(id);
    entry.resolve({ sent: false, error: new ChatwireError('cancelled', 'The queued message was cancelled before it was sent.') });
    return true;
  }

  /** Cancels every queued message. */
  clear(): void {
    for (const id of [...this.#entries.keys()]) this.cancel(id);
  }

  /** Sends the first queued message if the chat is free; one the client refuses (its files, say) makes way for the next. */
  drain(): void {
    const first = this.#store.getSnapshot().queued[0];
    const entry = first && this.#entries.get(first.id);
    if (!first || !entry || this.#busy()) return;
    this.#remove(first.id);
    void this.#send(entry.input, entry.options, first.id).then((result) => {
      entry.resolve(result);
      if (!result.sent && result.error.code !== 'cancelled') this.drain();
    });
  }

  #remove(id: string): void {
    this.#entries.delete(id);
    const store = this.#store;
    store.dispatch({ type: 'queue', queued: store.getSnapshot().queued.filter((item) => item.id !== id) });
  }
}
