import type { ElicitResult } from '@modelcontextprotocol/client';
import { answerElicitation, type ElicitationFailure, type ElicitationParams } from '../elicitation/answerElicitation.js';
import { CallRelations } from '../elicitation/callRelations.js';
import type { RequestInput } from './connectionOptions.js';
import { McpServerError, errorMessage } from './mcpServerError.js';

/** A call in flight, for routing the server's elicitations to the user who made it. */
export interface InFlight {
  /** The key its `tools/call` carries in `_meta` (see `CallRelations`). */
  readonly key: string;
  readonly requestInput: RequestInput | undefined;
  readonly fail: (error: Error) => void;
}

/**
 * One server's calls in flight and the questions the server asks their users: each question reaches
 * the user of the call it belongs to, or nobody.
 */
export class CallsInFlight {
  readonly #server: string;
  readonly #elicitationTimeoutMs: () => number;
  readonly #calls = new Set<InFlight>();
  /** Which call each 2025-era server request on a call's stream belongs to. */
  readonly relations = new CallRelations();

  /** `elicitationTimeoutMs` is read per question (the server's configuration or the default). */
  constructor(server: string, elicitationTimeoutMs: () => number) {
    this.#server = server;
    this.#elicitationTimeoutMs = elicitationTimeoutMs;
  }

  add(call: InFlight): void {
    this.#calls.add(call);
  }

  delete(call: InFlight): void {
    this.#calls.delete(call);
  }

  /** Fails every call in flight with an error naming the server and `why` (the connection dropped or closed). */
  failAll(why: string): void {
    for (const call of this.#calls) call.fail(new McpServerError(this.#server, why));
  }

  /**
   * Answers a 2026-07-28 `input_required` result's requests, one after the other, all by the user
   * of `call` (exact: the result is this call's own): elicitations through its `requestInput`,
   * `roots/list` with no roots; anything else (sampling, which this client does not offer) fails it.
   */
  async answerInputRequests(call: InFlight, requests: Record<string, unknown>): Promise<Record<string, unknown>> {
    const responses: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(requests)) {
      const request = (entry ?? {}) as { method?: unknown; params?: unknown };
      if (request.method === 'elicitation/create') {
        responses[key] = await this.#answer(call, (request.params ?? {}) as ElicitationParams);
      } else if (request.method === 'roots/list') {
        responses[key] = { roots: [] };
      } else {
        throw new McpServerError(
          this.#server,
          `MCP server '${this.#server}' asked for ${JSON.stringify(String(request.method).slice(0, 60))}, which this client does not answer.`,
        );
      }
    }
    return responses;
  }

  /**
   * A 2025-era server asks the user something during a call (`elicitation/create`). Over Streamable
   * HTTP it comes on that call's own response stream, which names the call, so it reaches exactly
   * that call's user whatever else is in flight. Where nothing names the call (stdio, the older SSE
   * transport, the standalone GET stream) it reaches a user only when exactly one call of this
   * server is in flight; with several it is declined rather than risk showing one user's question to
   * another.
   */
  async elicit(params: ElicitationParams, requestId: string | number): Promise<ElicitResult> {
    const key = this.relations.callOf(requestId);
    const calls = [...this.#calls];
    const call = key !== undefined ? calls.find((candidate) => candidate.key === key) : calls.length === 1 ? calls[0] : undefined;
    if (!call) return { action: 'decline' };
    return this.#answer(call, params);
  }

  /** One elicitation answered by the user of `call`; no answer in time (or a failed request) fails that call. */
  #answer(call: InFlight, params: ElicitationParams): Promise<ElicitResult> {
    const server = this.#server;
    const elicitationTimeoutMs = this.#elicitationTimeoutMs();
    return answerElicitation(params, call.requestInput, elicitationTimeoutMs, (failure: ElicitationFailure) =>
      call.fail(
        new McpServerError(
          server,
          failure.kind === 'timeout'
            ? `MCP server '${server}' asked the user for input and nobody answered within ${elicitationTimeoutMs} ms.`
            : `MCP server '${server}' asked the user for input and the request failed: ${errorMessage(failure.error)}`,
        ),
      ),
    );
  }
}
