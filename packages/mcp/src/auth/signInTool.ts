import { toolDefinition, type AnyTool, type ToolContext } from '@chatwire/core';
import type { RequestInput } from '../connection/connectionOptions.js';
import { McpServerError } from '../connection/mcpServerError.js';
import { exposedToolName } from '../tools/toolNames.js';
import type { McpAuth } from './mcpAuth.js';

/** What {@link signInTool} returns once the user signed in. */
export interface SignInResult {
  readonly signedIn: true;
  readonly server: string;
  readonly message: string;
}

/**
 * The one tool a server that signs users in offers a user who has not signed in yet
 * (`<prefix>__sign_in`): the model calls it when the user asks for something that server does.
 * Its call starts the sign-in and asks the user through `requestInput` with the authorization URL
 * (the run ends with an `input_request` interrupt whose `url` the browser opens on the user's click,
 * shown as "Connect <server>"); the callback stores the tokens, the browser answers `accept`, and the
 * call returns in the run that carried the answer, whose tool list has the server's own tools.
 * A refresh that works needs no question at all.
 */
export function signInTool(options: {
  readonly server: string;
  readonly prefix: string;
  readonly description: string;
  readonly user: string;
  readonly auth: McpAuth;
  /** A sign-in the SDK started already for this user (a step-up, a failed refresh): its URL, taken once. */
  readonly pending?: () => URL | undefined;
}): AnyTool {
  const { server, user, auth } = options;
  return toolDefinition({
    name: exposedToolName(options.prefix, 'sign_in'),
    description:
      `Connects the user to the MCP server '${server}' (${options.description}): they sign in in their browser. ` +
      `Call it when the user asks for something this server does; its tools are listed once the user is connected.`,
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    needsApproval: false,
    lazy: false,
    group: server,
    timeoutMs: auth.signInTimeoutMs + 60_000,
  }).server(async (_input, context: ToolContext & { readonly requestInput?: RequestInput }): Promise<SignInResult> => {
    const url = options.pending?.() ?? (await auth.begin(server, user));
    if (url) {
      if (!context.requestInput)
        throw new McpServerError(server, `MCP server '${server}' needs the user to sign in, and this run cannot ask them.`);
      const answer = await context.requestInput({
        message: `Sign in to ${server} to use its tools.`,
        schema: { type: 'object', properties: {} },
        url: url.href,
        connect: server,
        timeoutMs: auth.signInTimeoutMs,
      });
      if (answer.action !== 'accept') throw new McpServerError(server, `The user did not sign in to '${server}'.`);
    }
    if ((await auth.state(server, user)) === 'needs-sign-in')
      throw new McpServerError(server, `The sign-in to '${server}' did not finish; the user can try again.`);
    return { signedIn: true, server, message: `Signed in to ${server}: its tools are available from the next step.` };
  }) as AnyTool;
}
