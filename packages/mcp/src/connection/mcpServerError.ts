import { ProtocolError, SdkError, SdkErrorCode, UnauthorizedError } from '@modelcontextprotocol/client';

/** An error that names its server; its message is safe to show once redacted (`expose`). */
export class McpServerError extends Error {
  readonly expose = true;
  readonly server: string;
  constructor(server: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpServerError';
    this.server = server;
  }
}

/** Whether an error says the server answered (a JSON-RPC error, or no answer in time), rather than that the connection failed. */
export function isServerAnswer(error: unknown): boolean {
  return error instanceof ProtocolError || (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout);
}

/** Whether an error says the server refused this user's tokens (a sign-in is needed). */
export function isAuthFailure(error: unknown): boolean {
  return error instanceof UnauthorizedError || (error instanceof SdkError && error.code === SdkErrorCode.ClientHttpAuthentication);
}

/** An error's message, or its text when it is not an `Error`. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
