import {
  addTodo,
  applyPreferences,
  copyToClipboard,
  getBrowserLocale,
  getViewportInfo,
  highlightMessage,
  scrollToTop,
  setAccentColor,
  setTheme,
  showBanner,
} from '../../shared/catalog.ts';

/** What the browser tools do to the page beyond its state (the state is derived from the chat: `pageStateOf`). */
export interface BrowserToolUi {
  /** Scrolls the conversation back to its first message. */
  scrollToTop(): void;
}

/**
 * Every browser definition of the catalog with its implementation. The page tools (theme, banner,
 * notes, to-dos, accent colour) only answer: the page reads their effect from the completed calls
 * (`pageStateOf`), so a reload or an edited conversation shows exactly what the chat says happened.
 * Every value is plain text or an enum, rendered by React as text (never as HTML).
 */
export function createBrowserTools(ui: BrowserToolUi) {
  return [
    setTheme.client(({ theme }) => ({ applied: true, theme })),
    showBanner.client(({ text, tone }) => ({ shown: true, text, tone: tone ?? 'info' })),
    highlightMessage.client(({ text }) => ({ pinned: true, text })),
    applyPreferences.client(({ theme, banner }) => ({ applied: true, theme, banner })),
    addTodo.client(({ title }) => ({ added: true, title })),
    setAccentColor.client(({ color }) => ({ applied: true, color })),
    scrollToTop.client(() => {
      ui.scrollToTop();
      return { scrolled: true };
    }),
    getViewportInfo.client(() => {
      const media = (query: string) => (typeof matchMedia === 'function' ? matchMedia(query).matches : false);
      return {
        width: window.innerWidth,
        height: window.innerHeight,
        devicePixelRatio: window.devicePixelRatio,
        prefersDark: media('(prefers-color-scheme: dark)'),
        prefersReducedMotion: media('(prefers-reduced-motion: reduce)'),
      };
    }),
    getBrowserLocale.client(() => {
      const options = Intl.DateTimeFormat().resolvedOptions();
      return {
        language: navigator.language,
        languages: navigator.languages.slice(0, 3),
        timeZone: options.timeZone,
        localTime: new Date().toLocaleString(navigator.language, { dateStyle: 'medium', timeStyle: 'short' }),
      };
    }),
    copyToClipboard.client(async ({ text }) => {
      try {
        await navigator.clipboard.writeText(text);
        return { copied: true, characters: text.length };
      } catch (error) {
        // Clipboard access needs a secure context and focus; report instead of failing the call.
        return { copied: false, reason: error instanceof Error ? error.message : 'Clipboard unavailable' };
      }
    }),
  ] as const;
}
