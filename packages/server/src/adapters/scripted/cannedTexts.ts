/*
 * The scripted model's canned texts: what it says when a rule answers with prose rather than a
 * tool call.
 */

/** The answer to a request for something long ("long", "essay", "story"): twelve paragraphs. */
export const LONG_ANSWER = Array.from(
  { length: 12 },
  (_, i) =>
    `Part ${i + 1}: a chat interface streams its answer token by token, so the reader sees progress at once; ` +
    'every tool call moves through clear states, approvals wait for a person, and lazy tools stay out of the prompt until the model asks for them. ',
).join('');

/** An answer in Markdown, the way real models write: what a chat UI's renderer must handle. */
export const MARKDOWN_ANSWER = [
  '## What discovery does',
  '',
  'Lazy tools stay **out of the prompt** until the model asks for them:',
  '',
  '1. The model sees a *catalog* of names.',
  '2. It calls `__lazy__tool__discovery__` with the names it needs.',
  '3. From the next call on, those tools are sent like eager ones.',
  '',
  '| tools | sent up front |',
  '|---|---:|',
  '| eager | 8 |',
  '| lazy | 0 |',
  '',
  '```ts',
  "const chat = useChat({ api: '/api/chat' });",
  '```',
  '',
  '> Tokens saved are not money saved when a prompt cache is warm.',
].join('\n');

/** The reply when no rule replies. */
export const NOTHING_TO_ADD = 'I have nothing to add.';

/** Cuts `text` to `max` characters, ending with an ellipsis when it was longer. */
export function shorten(text: string, max = 240): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
