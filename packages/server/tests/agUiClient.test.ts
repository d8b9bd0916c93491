import { describe, expect, it } from 'vitest';
import { HttpAgent } from '@ag-ui/client';
import { EventSchema } from '@ag-ui/core/schemas';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { serve } from './fixtures.js';

describe('a real AG-UI client (@ag-ui/client HttpAgent)', () => {
  it('holds a conversation with the Chatwire server, and every event validates', async () => {
    const server = await serve(createChatHandler({ model: createScriptedModel() }));
    try {
      const agent = new HttpAgent({ url: `${server.url}/api/chat`, threadId: 'thread_ag_ui' });
      const seen: unknown[] = [];
      const subscriber = { onEvent: ({ event }: { event: unknown }) => void seen.push(event) };

      agent.addMessage({ id: 'u1', role: 'user', content: 'hello from HttpAgent' });
      await agent.runAgent({}, subscriber);
      agent.addMessage({ id: 'u2', role: 'user', content: 'and a second turn' });
      await agent.runAgent({}, subscriber);

      expect(seen.length).toBeGreaterThan(8);
      for (const event of seen) {
        const parsed = EventSchema.safeParse(event);
        expect(parsed.success, JSON.stringify(event)).toBe(true);
      }
      const roles = agent.messages.map((message) => message.role);
      expect(roles).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(agent.messages[1]?.content).toContain('hello from HttpAgent');
      expect(agent.messages[3]?.content).toContain('and a second turn');
    } finally {
      await server.close();
    }
  });
});
