import { toolDefinition } from '@chatwire/core';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SECRET_SAMPLES, chatOverHttp, recordingModel } from '../../server/tests/security/secretSamples.js';
import { createCodeMode, createQuickJsDriver } from '../src/index.js';

const driver = createQuickJsDriver();
afterAll(() => driver.dispose());

// The code reads the nested tool's error and returns it: the model reads it in the result, the
// browser in the result and in the external_error event.
const code = 'try { await external_leak({}); return "no error"; } catch (error) { return String(error.message); }';

describe("a nested tool's error inside execute_typescript reaches the model and the browser redacted", () => {
  it.each(SECRET_SAMPLES.map((sample) => [sample.pattern, sample] as const))('%s', async (_pattern, sample) => {
    const leak = toolDefinition({ name: 'leak', description: 'Calls a service that fails.', inputSchema: z.object({}) }).server(
      async () => {
        throw Object.assign(new Error(sample.text), { expose: true });
      },
    );
    const codeMode = createCodeMode({ tools: [leak], driver });
    const { model, requests } = recordingModel({
      rules: [{ name: 'code', when: 'run', reply: { toolCalls: [{ name: 'execute_typescript', args: { typescriptCode: code } }] } }],
    });
    const { sse, events, modelView } = await chatOverHttp(
      { model, tools: [...codeMode.tools], system: codeMode.systemPrompt, secret: 'test-secret' },
      requests,
      'run it',
    );
    expect(events.some((event) => event.type === 'CUSTOM' && event.name === 'chatwire.code_mode.external_error')).toBe(true);
    expect(requests).toHaveLength(2);
    for (const view of [sse, modelView]) {
      expect(view).toContain("Tool 'leak' failed:");
      expect(view).toContain('***');
      for (const secret of sample.secrets) expect(view).not.toContain(secret);
    }
  });
});
