/** A request the server refuses: bad history, or resume entries that do not bind to pending calls. */
export class ChatRequestError extends Error {
  /** Stable reason, e.g. `forged-result`, `unknown-approval`. */
  readonly code: string;
  /** The HTTP status `createChatHandler` answers with. Defaults to 400. */
  readonly status: number;
  constructor(code: string, message: string, options: { readonly status?: number } = {}) {
    super(message);
    this.name = 'ChatRequestError';
    this.code = code;
    this.status = options.status ?? 400;
  }
}
