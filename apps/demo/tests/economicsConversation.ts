import { expect } from 'vitest';
import type { Message } from '@ag-ui/core';
import type { AnyTool, ConversationUsage, ModelCallUsage } from '@chatwire/core';
import {
  createChatHandler,
  createScriptedModel,
  type ChatModel,
  type DiscoveryOptions,
  type ModelRequest,
  type ScriptedModelOptions,
} from '@chatwire/server';
import { demoRules } from '../server/routes.ts';
import { clientFor } from '../../../packages/server/tests/fixtures.ts';

/** A request as the model adapter received it. */
export interface Received {
  readonly system: string | undefined;
  readonly messages: readonly Message[];
  readonly tools: ModelRequest['tools'];
}

/** One conversation: the requests the adapter received, the accounting per model call, and the snapshot's record. */
export interface Run {
  readonly received: readonly Received[];
  readonly usage: readonly ModelCallUsage[];
  /** The snapshot's conversation record, as devtools shows it. */
  readonly conversation: ConversationUsage | undefined;
}

export const ECONOMICS_SYSTEM = 'You are the Chatwire demo assistant for a shop and workspace. Use tools when they help.';

/**
 * The conversation as the demo has it: a ChatClient against createChatHandler, the history sent back by
 * the client, on the scripted model with the demo's rules. `adapt` puts the scripted model behind
 * another adapter (the AI SDK bridge); the requests are recorded where that adapter receives them.
 */
export async function converse(
  tools: readonly AnyTool[],
  turns: readonly string[],
  discovery: DiscoveryOptions,
  catalogCalls: ScriptedModelOptions['catalogCalls'],
  adapt: (scripted: ChatModel) => ChatModel = (scripted) => scripted,
): Promise<Run> {
  const received: Received[] = [];
  const adapted = adapt(createScriptedModel({ rules: demoRules, catalogCalls }));
  const model: ChatModel = {
    ...adapted,
    stream: (request) => {
      received.push({ system: request.system, messages: request.messages, tools: request.tools });
      return adapted.stream(request);
    },
  };
  const handler = createChatHandler({ model, tools: [...tools], secret: 'economics', system: ECONOMICS_SYSTEM, discovery });
  const { client } = clientFor(handler);
  for (const text of turns) {
    const sent = await client.sendMessage(text);
    expect(sent.sent).toBe(true);
    expect(client.getSnapshot().status).toBe('ready');
  }
  const snapshot = client.getSnapshot();
  return { received, usage: snapshot.turns.flatMap((turn) => turn.modelCalls), conversation: snapshot.conversationUsage };
}
