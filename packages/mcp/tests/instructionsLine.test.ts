import { describe, expect, it } from 'vitest';
import { instructionsLine } from '../src/connection/instructionsLine.js';

describe("a server's instructions as one line of text", () => {
  it('reads the Markdown rather than showing it', () => {
    expect(instructionsLine('# Everything Server – Server Instructions\n\nAudience: agents.')).toBe(
      'Everything Server – Server Instructions',
    );
    expect(instructionsLine('Use **`read_file`** to read [files](https://example.com) _safely_.')).toBe(
      'Use read_file to read files safely.',
    );
    expect(instructionsLine('\n\n   \n- first item\n- second')).toBe('first item');
  });

  it('leaves raw HTML, code blocks and rules out, and keeps the first line of a paragraph', () => {
    expect(instructionsLine('<img src=x onerror=alert(1)>\n\n---\n\n```\ncode\n```\n\nThe memory server.\nIt keeps a graph.')).toBe(
      'The memory server.',
    );
    expect(instructionsLine('Hello <b>bold</b> world')).toBe('Hello bold world');
  });

  it('is undefined without any text, and cut to 200 characters', () => {
    expect(instructionsLine(undefined)).toBeUndefined();
    expect(instructionsLine('')).toBeUndefined();
    expect(instructionsLine('<div></div>')).toBeUndefined();
    expect(instructionsLine('x'.repeat(500))).toHaveLength(200);
  });
});
