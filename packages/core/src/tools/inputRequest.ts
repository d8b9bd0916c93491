import type { JsonSchema } from './toolSchema.js';

/**
 * What a running server tool asks the user for through `context.requestInput` (the generic
 * mechanism MCP elicitation uses): a prompt and the JSON Schema of the answer.
 */
export interface InputRequest {
  /** The prompt shown to the user (plain text; never rendered as HTML). */
  readonly message: string;
  /**
   * JSON Schema of the answer: an object schema (`type: 'object'`) whose `properties` are the fields
   * to fill (strings, numbers, integers, booleans, enums; `title` and `description` label them;
   * `required` lists the mandatory ones). The answer's `content` is validated against it.
   */
  readonly schema: JsonSchema;
  /**
   * URL mode (MCP's URL elicitation, and signing in to a server): the user is asked to open this
   * `http(s)` link, which the browser opens only after the user's click, and the answer is `accept`
   * (opened, or done), `decline` or `cancel`, with no content. `schema` is then `{ type: 'object',
   * properties: {} }`. At most 8,192 characters. Defaults to none (a form).
   */
  readonly url?: string;
  /**
   * With `url`: what the link connects (an MCP server's name): the browser shows "Connect <connect>"
   * and, once the sign-in finished, answers `accept` by itself. Defaults to none.
   */
  readonly connect?: string;
  /**
   * How long to wait for the answer, in milliseconds, after which the request resolves as `cancel`
   * and the tool call ends with an error. Defaults to the server's `inputRequestTimeoutMs`
   * (5 minutes unless configured). At most 24 hours.
   */
  readonly timeoutMs?: number;
}

/** What the user did with an input request: filled it in, said no, or dismissed it (or nobody answered in time). */
export type InputAction = 'accept' | 'decline' | 'cancel';

/** The answer a tool's `requestInput` resolves with (MCP elicitation's result shape). */
export interface InputResponse {
  readonly action: InputAction;
  /** The submitted values (only with `accept`), validated against the request's schema. */
  readonly content?: Record<string, unknown>;
}

/** What a resume entry answering an input request carries in `payload` (status `resolved`). */
export interface InputRequestPayload {
  readonly action: InputAction;
  readonly content?: Record<string, unknown>;
}
