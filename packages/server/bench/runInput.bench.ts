import { bench, describe } from 'vitest';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { readRunInput } from '../src/http/readRunInput.js';

/*
 * The handler's RunAgentInput check on the largest body the default limits accept (2,000 messages):
 * the server's own shape check against AG-UI's zod schema, which it replaced (same rules; see
 * tests/runInputShape.test.ts).
 */
const messages = Array.from({ length: 2_000 }, (_, i) =>
  i % 4 === 0
    ? { id: `u${i}`, role: 'user', content: `Question ${i}: what is the weather in Paris?` }
    : i % 4 === 1
      ? {
          id: `a${i}`,
          role: 'assistant',
          content: '',
          toolCalls: [{ id: `c${i}`, type: 'function', function: { name: 'getWeather', arguments: '{"city":"Paris"}' } }],
        }
      : i % 4 === 2
        ? { id: `t${i}`, role: 'tool', toolCallId: `c${i - 1}`, content: '{"celsius":12}' }
        : { id: `a${i}`, role: 'assistant', content: 'It is 12 °C in Paris.' },
);
const body = JSON.parse(
  JSON.stringify({ threadId: 't', runId: 'r', messages, tools: [], context: [], state: {}, forwardedProps: {} }),
) as unknown;

describe('RunAgentInput check, 2,000 messages', () => {
  bench('@chatwire/server readRunInput', () => {
    if (!readRunInput(body).ok) throw new Error('refused');
  });
  bench('@ag-ui/core RunAgentInputSchema.safeParse (zod)', () => {
    if (!RunAgentInputSchema.safeParse(body).success) throw new Error('refused');
  });
});
