import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';

/** Characters of a server's instructions read for their first line (instructions can be pages long). */
const READ_CHARS = 4_000;
/** The longest line kept. */
const MAX_LINE = 200;

/**
 * The first line of text of an MCP server's `instructions`, which servers write in Markdown: the
 * Markdown is parsed (mdast-util-from-markdown, a CommonMark parser) and its first heading or
 * paragraph read as plain text, so "# Everything Server" is "Everything Server", emphasis, code
 * spans and links lose their markup, and raw HTML is left out. It describes the server in lists
 * (devtools, the discovery catalog's groups), always as text. `undefined` when there is none.
 */
export function instructionsLine(instructions: string | undefined): string | undefined {
  if (!instructions) return undefined;
  return firstLine(fromMarkdown(instructions.slice(0, READ_CHARS)).children);
}

type Block = ReturnType<typeof fromMarkdown>['children'][number];

/** The first line of text among these blocks, looking into lists and quotes (a list reads as its first item). */
function firstLine(blocks: readonly Block[]): string | undefined {
  for (const block of blocks) {
    if (block.type === 'html' || block.type === 'code' || block.type === 'definition' || block.type === 'thematicBreak') continue;
    const line =
      block.type === 'list' || block.type === 'listItem' || block.type === 'blockquote'
        ? firstLine(block.children as readonly Block[])
        : toString(block, { includeHtml: false })
            .split('\n')
            .map((text) => text.trim())
            .find((text) => text.length > 0);
    if (line) return line.slice(0, MAX_LINE);
  }
  return undefined;
}
