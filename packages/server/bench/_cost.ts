import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { CallSigner } from '/work/wt-server21/packages/server/src/signing.ts';
const noteDown = toolDefinition({ name: 'noteDown', description: 'Write a note.', inputSchema: z.object({ text: z.string() }) }).server(async ({ text }) => ({ noted: text }));
const secret = 'bench-secret';
const handler = createChatHandler({ model: createScriptedModel(), tools: [noteDown], secret });
const signer = new CallSigner(secret);
function history(n: number, threadId: string) {
  const out: any[] = [];
  for (let i = 0; out.length < n; i++) {
    out.push({ id: `u${i}`, role: 'user', content: `use noteDown {"text":"note number ${i} about the weather in Paris"}` });
    const call = { id: `c${i}`, type: 'function', function: { name: 'noteDown', arguments: `{"text":"note number ${i} about the weather in Paris"}` } };
    out.push({ id: `a${i}`, role: 'assistant', toolCalls: [call] });
    const content = JSON.stringify({ noted: `note number ${i} about the weather in Paris` });
    out.push({ id: `t${i}`, role: 'tool', toolCallId: `c${i}`, content, metadata: { chatwire: { signature: signer.resultSignature(threadId, call as any, content) } } });
    out.push({ id: `b${i}`, role: 'assistant', content: `I noted it: note number ${i} about the weather in Paris. Anything else?` });
  }
  return out.slice(0, n);
}
async function once(n: number, k: number) {
  const threadId = 't1';
  const messages = [...history(n, threadId), { id: `q${k}`, role: 'user', content: 'hello there' }];
  const body = JSON.stringify({ threadId, runId: `r${k}`, messages, tools: [], context: [] });
  const t = performance.now();
  const res = await handler(new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
  const text = await res.text();
  const ms = performance.now() - t;
  if (res.status !== 200 || !text.includes('RUN_FINISHED')) throw new Error(text.slice(0, 300));
  return ms;
}
for (const n of (process.env.NS ?? "0,1000").split(",").map(Number)) {
  const times: number[] = [];
  for (let k = 0; k < 40; k++) times.push(await once(n, k));
  times.sort((a, b) => a - b);
  console.log(n, 'median', times[20].toFixed(2), 'min', times[0].toFixed(2));
}
