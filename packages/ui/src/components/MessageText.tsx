import { lazy, memo, Suspense } from 'react';

/**
 * The Markdown renderer (streamdown and its parsers, about 160 kB gzipped) loads in its own chunk,
 * off the initial load; until it arrives the text shows as plain text, so nothing waits on it.
 */
const loadMarkdown = () => import('../markdown/Markdown.js').then((module) => ({ default: module.Markdown }));
const LazyMarkdown = lazy(loadMarkdown);

/**
 * Starts loading the Markdown renderer now (for example once the page has started), so the first
 * answer does not show as plain text for a moment. {@link MessageList} calls it when it mounts.
 */
export function preloadMarkdown(): void {
  void loadMarkdown();
}

/**
 * A text part: Markdown for the assistant (streamdown: unterminated Markdown is completed while it
 * streams; raw HTML is never parsed as HTML; links open in a new tab; images are not loaded), plain
 * text with its line breaks for the user.
 */
export const MessageText = memo(function MessageText(props: { text: string; streaming?: boolean; markdown?: boolean }) {
  if (props.markdown === false) return <p className="cw-user-text">{props.text}</p>;
  return (
    <div className="cw-text" data-state={props.streaming ? 'streaming' : 'done'}>
      <Suspense fallback={<p className="cw-plain-text">{props.text}</p>}>
        <LazyMarkdown text={props.text} streaming={props.streaming ?? false} />
      </Suspense>
    </div>
  );
});
