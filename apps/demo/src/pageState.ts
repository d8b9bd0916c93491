import type { ChatMessage } from '@chatwire/core';
import { accentColorSchema, bannerToneSchema, themeSchema, type AccentColor, type BannerTone, type Theme } from '../shared/catalog.ts';

/** A banner as the page shows it. */
export interface Banner {
  readonly text: string;
  readonly tone: BannerTone;
}

/** What the browser tools change on the page. */
export interface PageState {
  readonly theme: Theme;
  readonly accent: AccentColor;
  readonly banner: Banner | undefined;
  readonly notes: readonly string[];
  readonly todos: readonly string[];
}

export const INITIAL_PAGE_STATE: PageState = { theme: 'light', accent: 'indigo', banner: undefined, notes: [], todos: [] };

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * The page as the conversation left it: the browser tools' effects, replayed from the calls that
 * ran (in order; a call that failed, was declined or stopped changed nothing). The page state is
 * derived from the chat, never kept beside it, so after a reload (the chat is restored from
 * localStorage) or an edit that replaces later messages, the page and the chat say the same thing.
 * Inputs are checked again with the tools' schemas: a saved chat is data from storage.
 */
export function pageStateOf(messages: readonly ChatMessage[]): PageState {
  let { theme, accent, banner } = INITIAL_PAGE_STATE;
  const notes: string[] = [];
  const todos: string[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || part.state !== 'output-available') continue;
      const input = (part.input ?? {}) as Record<string, unknown>;
      switch (part.toolName) {
        case 'setTheme':
          theme = themeSchema.safeParse(input['theme']).data ?? theme;
          break;
        case 'applyPreferences': {
          theme = themeSchema.safeParse(input['theme']).data ?? theme;
          const shown = text(input['banner']);
          if (shown) banner = { text: shown, tone: 'info' };
          break;
        }
        case 'setAccentColor':
          accent = accentColorSchema.safeParse(input['color']).data ?? accent;
          break;
        case 'showBanner': {
          const shown = text(input['text']);
          if (shown) banner = { text: shown, tone: bannerToneSchema.safeParse(input['tone']).data ?? 'info' };
          break;
        }
        case 'highlightMessage': {
          const note = text(input['text']);
          if (note) notes.push(note);
          break;
        }
        case 'addTodo': {
          const todo = text(input['title']);
          if (todo) todos.push(todo);
          break;
        }
      }
    }
  }
  return { theme, accent, banner, notes, todos };
}
