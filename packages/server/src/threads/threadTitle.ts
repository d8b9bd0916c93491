import type { Message } from '@ag-ui/core';
import { neutralizeBidi } from '@chatwire/core/wire';

/** The longest title a thread gets, in characters (code points). */
export const MAX_TITLE_LENGTH = 80;

/** The text of a user message: its string content, or its text parts joined. */
function textOf(message: Message): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
      return type === 'text' && typeof text === 'string' ? text : '';
    })
    .join(' ');
}

/**
 * A title as stored: bidi controls removed, whitespace and control characters folded to single
 * spaces, at most {@link MAX_TITLE_LENGTH} characters (an ellipsis when cut). Empty when nothing is left.
 */
export function cleanTitle(text: string): string {
  const folded = neutralizeBidi(text)
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
  const chars = Array.from(folded);
  return chars.length <= MAX_TITLE_LENGTH
    ? folded
    : `${chars
        .slice(0, MAX_TITLE_LENGTH - 1)
        .join('')
        .trimEnd()}…`;
}

/** A new thread's default title: the start of its first user message, else "New chat". */
export function defaultTitle(messages: readonly Message[]): string {
  const first = messages.find((message) => message.role === 'user');
  return (first && cleanTitle(textOf(first))) || 'New chat';
}
