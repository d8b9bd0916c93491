import {
  EventType,
  type AssistantMessage,
  type Event,
  type Message,
  type ReasoningMessage,
  type TokenUsage,
  type ToolCall,
} from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { createId } from '@chatwire/core/shared';
import type { ChatModel, ModelChunk, ModelTool, ProviderSearchError } from '../model/chatModel.js';
import type { RunContext } from '../run/runContext.js';
import { appAnnouncement } from './appCalls.js';

/** A provider's own tool search in one model call: the discovery call the stream showed, and what the provider said. */
export interface ProviderSearch {
  readonly call: ToolCall;
  /** Tool names the provider reported loading (not yet vetted). */
  readonly toolNames: readonly string[];
  readonly error?: ProviderSearchError;
}

/** What one model call produced: its tool calls (in the order made) and the usage it reported. */
export interface ModelStepResult {
  /** Calls the loop answers (the provider's own searches are in `searches`). */
  readonly calls: ToolCall[];
  /** The provider's own tool searches (provider-native deferred loading), already run by the provider. */
  readonly searches: ProviderSearch[];
  readonly usage: TokenUsage | undefined;
  /** What the call adds to the run's history: its reasoning and its assistant message (none when it said nothing). */
  readonly added: readonly Message[];
}

/**
 * Streams one model call out as AG-UI events (one message id for its text and the parent of its
 * tool calls) and returns the messages it adds to the run's history. Whatever the call opened
 * is closed before a failure or a stop propagates, so the run can end well-formed.
 */
export async function* streamModelStep(
  model: ChatModel,
  system: string | undefined,
  context: RunContext,
  tools: ModelTool[],
  messages: Message[],
  deferredTools: readonly ModelTool[] = [],
): AsyncGenerator<Event, ModelStepResult, undefined> {
  const messageId = createId('msg');
  const calls = new Map<string, ToolCall>();
  const open = new Set<string>();
  /** The provider's own searches, by call id: shown as discovery calls, answered by the provider. */
  const searches = new Map<string, { toolNames: readonly string[]; error?: ProviderSearchError } | undefined>();
  let text = '';
  let textOpen = false;
  /** The reasoning spans of this call, in stream order, each with its own message id; the last one may be open. */
  const reasoning: { id: string; text: string; encryptedValue?: string }[] = [];
  let reasoningOpen = false;
  let usage: TokenUsage | undefined;
  const closeText = function* (): Generator<Event> {
    if (textOpen) yield { type: EventType.TEXT_MESSAGE_END, messageId };
    textOpen = false;
  };
  const openReasoning = function* (): Generator<Event> {
    if (reasoningOpen) return;
    yield* closeText();
    const id = createId('reasoning');
    reasoning.push({ id, text: '' });
    reasoningOpen = true;
    yield { type: EventType.REASONING_START, messageId: id };
    yield { type: EventType.REASONING_MESSAGE_START, messageId: id, role: 'reasoning' };
  };
  const closeReasoning = function* (): Generator<Event> {
    const span = reasoning.at(-1);
    if (!reasoningOpen || !span) return;
    reasoningOpen = false;
    yield { type: EventType.REASONING_MESSAGE_END, messageId: span.id };
    yield { type: EventType.REASONING_END, messageId: span.id };
  };
  const closeAll = function* (): Generator<Event> {
    yield* closeReasoning();
    yield* closeText();
    for (const id of open) yield { type: EventType.TOOL_CALL_END, toolCallId: id };
    open.clear();
  };

  function* streamChunk(chunk: ModelChunk): Generator<Event> {
    if (chunk.type !== 'reasoning-delta' && chunk.type !== 'reasoning-end') yield* closeReasoning();
    switch (chunk.type) {
      case 'reasoning-delta': {
        if (!chunk.delta) break;
        yield* openReasoning();
        const span = reasoning.at(-1)!;
        span.text += chunk.delta;
        yield { type: EventType.REASONING_MESSAGE_CONTENT, messageId: span.id, delta: chunk.delta };
        break;
      }
      case 'reasoning-end': {
        if (chunk.encryptedValue) {
          // An artefact with no text before it (encrypted reasoning without a summary) is a span of its own.
          yield* openReasoning();
          const span = reasoning.at(-1)!;
          span.encryptedValue = chunk.encryptedValue;
          yield { type: EventType.REASONING_ENCRYPTED_VALUE, subtype: 'message', entityId: span.id, encryptedValue: chunk.encryptedValue };
        }
        yield* closeReasoning();
        break;
      }
      case 'text-delta':
        if (!chunk.delta) break;
        if (!textOpen) {
          yield { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' };
          textOpen = true;
        }
        text += chunk.delta;
        yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: chunk.delta };
        break;
      case 'tool-call-start':
      case 'tool-search-start': {
        // A repeated start would reopen a call the stream already has: the first one stands.
        if (calls.has(chunk.id)) break;
        yield* closeText();
        // The provider's search looks like Chatwire's discovery, so everything downstream reads it as one.
        const name = chunk.type === 'tool-search-start' ? DISCOVERY_TOOL_NAME : chunk.name;
        if (chunk.type === 'tool-search-start') searches.set(chunk.id, undefined);
        calls.set(chunk.id, { id: chunk.id, type: 'function', function: { name, arguments: '' } });
        open.add(chunk.id);
        yield { type: EventType.TOOL_CALL_START, toolCallId: chunk.id, toolCallName: name, parentMessageId: messageId };
        break;
      }
      case 'tool-search-result':
        // Only for a search this stream started, and only its first result.
        if (searches.has(chunk.id) && searches.get(chunk.id) === undefined) {
          searches.set(chunk.id, { toolNames: chunk.toolNames, ...(chunk.error ? { error: chunk.error } : {}) });
        }
        break;
      case 'tool-call-delta': {
        const call = calls.get(chunk.id);
        if (!call || !open.has(chunk.id) || !chunk.delta) break;
        call.function.arguments += chunk.delta;
        yield { type: EventType.TOOL_CALL_ARGS, toolCallId: chunk.id, delta: chunk.delta };
        break;
      }
      case 'tool-call-end': {
        if (!open.delete(chunk.id)) break;
        const call = calls.get(chunk.id);
        if (call && chunk.encryptedValue && !searches.has(chunk.id)) {
          call.encryptedValue = chunk.encryptedValue;
          yield {
            type: EventType.REASONING_ENCRYPTED_VALUE,
            subtype: 'tool-call',
            entityId: chunk.id,
            encryptedValue: chunk.encryptedValue,
          };
        }
        yield { type: EventType.TOOL_CALL_END, toolCallId: chunk.id };
        break;
      }
      case 'finish':
        usage = chunk.usage;
        break;
    }
  }

  /** Calls whose MCP App (if their tool has one) was looked up. */
  const announced = new Set<string>();
  try {
    const request = { system, messages, tools, ...(deferredTools.length ? { deferredTools } : {}), signal: context.signal };
    for await (const chunk of model.stream(request)) {
      // A stopped run ends here: the abort propagates and the run closes as cancelled.
      context.signal.throwIfAborted();
      yield* streamChunk(chunk);
      // The app comes right after its call starts, so it can show the arguments as they stream.
      // (A call of a lazy tool not yet discovered runs too: call-to-load.)
      if (chunk.type === 'tool-call-start' && !announced.has(chunk.id)) {
        announced.add(chunk.id);
        const app = await appAnnouncement(context, chunk.id, chunk.name);
        if (app) yield app;
      }
    }
  } catch (error) {
    yield* closeAll();
    throw error;
  }
  yield* closeAll();

  const assistant: AssistantMessage = {
    id: messageId,
    role: 'assistant',
    ...(text ? { content: text } : {}),
    ...(calls.size ? { toolCalls: [...calls.values()] } : {}),
  };
  const added: Message[] = [];
  if (text || calls.size) {
    // The reasoning that led to this answer goes before it, as the client's history has it, for adapters that send it back.
    for (const span of reasoning) {
      const message: ReasoningMessage = {
        id: span.id,
        role: 'reasoning',
        content: span.text,
        ...(span.encryptedValue ? { encryptedValue: span.encryptedValue } : {}),
      };
      added.push(message);
    }
    added.push(assistant);
  }
  const providerSearches: ProviderSearch[] = [];
  for (const [id, result] of searches) {
    const call = calls.get(id) as ToolCall;
    // A search the provider started but never answered (it stopped for other calls) loaded nothing.
    if (!result) providerSearches.push({ call, toolNames: [], error: { message: UNANSWERED_SEARCH } });
    else providerSearches.push({ call, toolNames: result.toolNames, ...(result.error ? { error: result.error } : {}) });
  }
  return { calls: [...calls.values()].filter((call) => !searches.has(call.id)), searches: providerSearches, usage, added };
}

const UNANSWERED_SEARCH = "The provider's search got no result in this response; search again if the tool is still needed.";
