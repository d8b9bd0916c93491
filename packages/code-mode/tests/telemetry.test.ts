import { toolDefinition } from '@chatwire/core';
import { chat, createScriptedModel } from '@chatwire/server';
import { metrics, propagation, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCodeMode, createQuickJsDriver } from '../src/index.js';

const driver = createQuickJsDriver();
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);
afterAll(async () => {
  await driver.dispose();
  await provider.shutdown();
  trace.disable();
  metrics.disable();
  propagation.disable();
});

describe('Code Mode in OpenTelemetry', () => {
  it('an execution is an execute_tool span and each external call inside it is a child execute_tool span', async () => {
    const getWeather = toolDefinition({
      name: 'getWeather',
      description: 'Current weather for a city.',
      inputSchema: z.object({ city: z.string() }),
      lazy: true,
    }).server(async ({ city }) => ({ city, celsius: 20 }));
    const codeMode = createCodeMode({ tools: [getWeather], driver });
    for await (const event of chat({
      model: createScriptedModel(),
      messages: [{ id: 'u1', role: 'user', content: 'use code to compare the weather in Paris and Tokyo' }],
      tools: [...codeMode.tools],
      system: codeMode.systemPrompt,
      secret: 's',
    }))
      void event;
    const spans = exporter.getFinishedSpans();
    const [execution] = spans.filter((span) => span.name === 'execute_tool execute_typescript');
    expect(execution).toBeDefined();
    expect(execution!.attributes['chatwire.code_mode.tool_calls']).toBe(2);
    expect(execution!.events.map((event) => event.name)).toContain('chatwire.code_mode.execution_started');
    const nested = spans.filter((span) => span.parentSpanContext?.spanId === execution!.spanContext().spanId);
    expect(nested.map((span) => span.name)).toEqual(['execute_tool getWeather', 'execute_tool getWeather']);
    for (const span of nested) {
      expect(span.attributes).toMatchObject({ 'gen_ai.tool.name': 'getWeather', 'chatwire.tool.outcome': 'success' });
      expect(span.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    }
    const executions = new Set(nested.map((span) => span.attributes['chatwire.code_mode.execution_id']));
    expect(executions.size).toBe(1);
    expect(String([...executions][0])).not.toBe('');
    const [root] = spans.filter((span) => span.name === 'invoke_agent chatwire');
    expect(execution!.parentSpanContext?.spanId).toBe(root!.spanContext().spanId);
    expect(spans.filter((span) => span.name === 'execute_tool discover_tools')).toHaveLength(1);
  });
});
