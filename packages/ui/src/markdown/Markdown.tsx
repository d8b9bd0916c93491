import { memo } from 'react';
import { defaultRehypePlugins, Streamdown, type StreamdownProps } from 'streamdown';

/**
 * Raw HTML is never parsed as HTML: streamdown's `raw` plugin is left out (markup the model writes
 * shows as text), sanitisation stays on, and links and images are hardened: only http(s) and
 * mailto links, no images at all (a model's image URL could track the reader).
 */
const rehypePlugins: StreamdownProps['rehypePlugins'] = [
  defaultRehypePlugins['sanitize']!,
  [
    (defaultRehypePlugins['harden'] as [unknown, unknown])[0] as never,
    {
      // '*' lets http(s) links through (rehype-harden parses each prefix as a URL, so 'https://' alone
      // matched nothing and every link showed as blocked); mailto: is one of its safe protocols, and
      // javascript:, data:, file: and vbscript: links are always blocked.
      allowedLinkPrefixes: ['*'],
      allowedProtocols: [],
      allowedImagePrefixes: [],
      allowDataImages: false,
      defaultOrigin: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
    },
  ],
];

const components: StreamdownProps['components'] = {
  // Links leave the chat in a new tab and pass nothing back to it.
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
};

/** Props of {@link Markdown}. */
export interface MarkdownProps {
  /** The Markdown source (the model's text). */
  text: string;
  /** True while the text still grows: unterminated Markdown is completed for display. */
  streaming: boolean;
}

/**
 * An assistant's text as Markdown, rendered with streamdown (made for streaming: it completes
 * unterminated Markdown such as an open `**` or code fence while tokens arrive, and renders each
 * finished block once, so settled paragraphs do not flicker or re-render per token).
 */
export const Markdown = memo(function Markdown(props: MarkdownProps) {
  return (
    <Streamdown
      className="cw-markdown"
      mode="streaming"
      isAnimating={props.streaming}
      rehypePlugins={rehypePlugins}
      skipHtml
      disallowedElements={['img']}
      components={components}
      controls={{ code: true, table: false, mermaid: false }}
      lineNumbers={false}
      linkSafety={{ enabled: false }}
    >
      {props.text}
    </Streamdown>
  );
});
