import type { ChatMessage, ToolCallPart } from '@chatwire/core';
import { describe, expect, it } from 'vitest';
import { pageStateOf } from '../src/pageState.ts';

/** A hand-written browser tool call, as a saved chat holds it. */
const call = (toolName: string, input: unknown, state: ToolCallPart['state'] = 'output-available'): ToolCallPart => ({
  type: 'tool-call',
  toolCallId: `${toolName}-${JSON.stringify(input)}-${state}`,
  toolName,
  state,
  messageId: 'a',
  argsText: '',
  partialInput: undefined,
  input,
  timeline: [],
});

const chat = (...parts: ToolCallPart[]): ChatMessage[] => [{ id: 'a1', role: 'assistant', parts, createdAt: 0 }];

describe('the page state is read from the chat', () => {
  it('starts light, with no banner, notes or tasks', () => {
    expect(pageStateOf([])).toEqual({ theme: 'light', accent: 'indigo', banner: undefined, notes: [], todos: [] });
  });

  it('replays completed browser tool calls in order: the last theme wins, to-dos and notes add up', () => {
    const state = pageStateOf(
      chat(
        call('setTheme', { theme: 'dark' }),
        call('addTodo', { title: 'buy milk' }),
        call('setAccentColor', { color: 'teal' }),
        call('applyPreferences', { theme: 'light', banner: 'Welcome back' }),
        call('setTheme', { theme: 'dark' }),
        call('highlightMessage', { text: 'remember this' }),
        call('addTodo', { title: 'call Sam' }),
        call('showBanner', { text: 'Sale ends today', tone: 'warning' }),
      ),
    );
    expect(state).toEqual({
      theme: 'dark',
      accent: 'teal',
      banner: { text: 'Sale ends today', tone: 'warning' },
      notes: ['remember this'],
      todos: ['buy milk', 'call Sam'],
    });
  });

  it('ignores calls that did not complete (failed, declined, stopped, waiting) and inputs a saved chat could have altered', () => {
    const state = pageStateOf(
      chat(
        call('setTheme', { theme: 'dark' }, 'output-error'),
        call('highlightMessage', { text: 'not approved' }, 'cancelled'),
        call('addTodo', { title: 'waiting' }, 'approval-requested'),
        call('setTheme', { theme: 'neon' }),
        call('setAccentColor', { color: 42 }),
        call('addTodo', { title: ['not', 'text'] }),
        call('showBanner', { text: '   ' }),
        call('showBanner', { text: 'ok', tone: 'blink' }),
      ),
    );
    expect(state).toEqual({ theme: 'light', accent: 'indigo', banner: { text: 'ok', tone: 'info' }, notes: [], todos: [] });
  });
});
