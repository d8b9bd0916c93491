import { EventType, type AssistantMessage, type Event, type Message, type ToolCall, type ToolMessage } from '@ag-ui/core';
import { APPROVAL_DECISION_EVENT, type ModelCallUsage } from '@chatwire/core';
import { CHATWIRE_EVENTS, createId } from '@chatwire/core/shared';
import { readModelCallUsage } from '@chatwire/core/wire';
import type { ThreadRunRecord } from './threadStore.js';

/**
 * Folds a run's events into the AG-UI messages they add, with the ids of the stream: one assistant
 * message per model step (its text and its calls), then each TOOL_CALL_RESULT as a tool message,
 * and the run's record (outcome, usage, interrupts, approval decisions and each model call's
 * accounting record). A call keeps its provider artefact (`REASONING_ENCRYPTED_VALUE` of subtype
 * `tool-call`); reasoning is the client's to show and is not stored.
 */
export class TurnRecorder {
  private readonly order: Message[] = [];
  private readonly assistants = new Map<string, { id: string; text: string; calls: ToolCall[] }>();
  private readonly calls = new Map<string, ToolCall>();
  private readonly decisions: unknown[] = [];
  private readonly modelCalls: ModelCallUsage[] = [];
  private outcome = 'cancelled';
  private usage: unknown;
  private details: Record<string, unknown> = {};

  constructor(private readonly runId: string) {}

  /** The assistant message `id`, created in stream order on first sight. */
  private assistant(id: string) {
    let found = this.assistants.get(id);
    if (!found) {
      found = { id, text: '', calls: [] };
      this.assistants.set(id, found);
      this.order.push({ id, role: 'assistant' } as AssistantMessage);
    }
    return found;
  }

  /** Reads one event of the run. */
  see(event: Event): void {
    switch (event.type) {
      case EventType.TEXT_MESSAGE_START:
        this.assistant(event.messageId);
        break;
      case EventType.TEXT_MESSAGE_CONTENT:
        this.assistant(event.messageId).text += event.delta;
        break;
      case EventType.TOOL_CALL_START: {
        const parent = this.assistant(event.parentMessageId ?? [...this.assistants.keys()].at(-1) ?? createId('msg'));
        const call: ToolCall = { id: event.toolCallId, type: 'function', function: { name: event.toolCallName, arguments: '' } };
        parent.calls.push(call);
        this.calls.set(call.id, call);
        break;
      }
      case EventType.TOOL_CALL_ARGS: {
        const call = this.calls.get(event.toolCallId);
        if (call) call.function.arguments += event.delta;
        break;
      }
      case EventType.TOOL_CALL_RESULT: {
        const error = (event.metadata as { chatwire?: { error?: unknown } } | undefined)?.chatwire?.error;
        // The key order of the server's own tool messages, so a stored message serialises as the stream's.
        const message: ToolMessage = {
          id: event.messageId,
          role: 'tool',
          content: typeof event.content === 'string' ? event.content : JSON.stringify(event.content),
          toolCallId: event.toolCallId,
          ...(typeof error === 'string' ? { error } : {}),
          ...(event.metadata ? { metadata: event.metadata } : {}),
        } as ToolMessage;
        this.order.push(message);
        break;
      }
      case EventType.REASONING_ENCRYPTED_VALUE: {
        // A call's provider artefact (Gemini's thought signature) is part of the call the model reads back.
        const call = event.subtype === 'tool-call' ? this.calls.get(event.entityId) : undefined;
        if (call) call.encryptedValue = event.encryptedValue;
        break;
      }
      case EventType.CUSTOM: {
        if (event.name === APPROVAL_DECISION_EVENT) this.decisions.push(event.value);
        const usage = event.name === CHATWIRE_EVENTS.modelCallUsage ? readModelCallUsage(event.value) : undefined;
        if (usage) this.modelCalls.push(usage);
        break;
      }
      case EventType.RUN_FINISHED: {
        const outcome = (event as { outcome?: { type?: string; interrupts?: unknown; pendingToolCallIds?: unknown } }).outcome;
        this.outcome = outcome?.type ?? 'success';
        if (outcome?.interrupts) this.details = { ...this.details, interrupts: outcome.interrupts };
        if (outcome?.pendingToolCallIds) this.details = { ...this.details, pendingToolCallIds: outcome.pendingToolCallIds };
        this.usage = (event as { usage?: unknown }).usage;
        break;
      }
      case EventType.RUN_ERROR:
        this.outcome = 'error';
        this.details = { ...this.details, error: { message: event.message, ...(event.code ? { code: event.code } : {}) } };
        this.usage = (event as { usage?: unknown }).usage ?? this.usage;
        break;
      default:
        break;
    }
  }

  /** The messages the run added so far, in stream order (assistant messages without text or calls left out). */
  messages(): Message[] {
    const out: Message[] = [];
    for (const message of this.order) {
      if (message.role !== 'assistant') {
        out.push(message);
        continue;
      }
      const { id, text, calls } = this.assistants.get(message.id) as { id: string; text: string; calls: ToolCall[] };
      if (!text && calls.length === 0) continue;
      out.push({
        id,
        role: 'assistant',
        ...(text ? { content: text } : {}),
        ...(calls.length ? { toolCalls: calls.map((call) => ({ ...call, function: { ...call.function } })) } : {}),
      });
    }
    return out;
  }

  /** The run's record. */
  record(): ThreadRunRecord {
    const details = this.decisions.length ? { ...this.details, decisions: this.decisions } : this.details;
    return {
      runId: this.runId,
      outcome: this.outcome,
      ...(this.usage === undefined ? {} : { usage: this.usage }),
      ...(Object.keys(details).length ? { details } : {}),
      ...(this.modelCalls.length ? { modelCalls: [...this.modelCalls] } : {}),
    };
  }
}
