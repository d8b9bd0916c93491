import { describe, expect, it, vi } from 'vitest';
import { type AnyTool, type ServerTool } from '@chatwire/core';
import { validateToolInput, validateToolOutput } from '@chatwire/core/shared';
import { argumentsFromText } from '@chatwire/server/testing';
import { browserToolDefinitions, catalog, serverToolDefinitions } from '../shared/catalog.ts';
import { createServerTools, serverTools } from '../server/toolImplementations.ts';

type AnyServerTool = ServerTool<string, unknown, unknown>;
const tools = serverTools as readonly AnyServerTool[];
const context = () => ({ toolCallId: 'call_test', signal: new AbortController().signal });
const serverNames = new Set<string>(serverToolDefinitions.map((tool) => tool.name));
const browserNames = new Set<string>(browserToolDefinitions.map((tool) => tool.name));
const lazyTools = catalog.filter((tool) => tool.lazy);
const eagerTools = catalog.filter((tool) => !tool.lazy);

describe('the demo tool catalog', () => {
  it('is large, mostly lazy, and has unique valid names', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(40);
    expect(lazyTools.length).toBeGreaterThanOrEqual(30);
    expect(eagerTools.length).toBeGreaterThanOrEqual(6);
    const names = catalog.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('is exactly the server and browser definitions, eager ones first', () => {
    expect(catalog.length).toBe(serverToolDefinitions.length + browserToolDefinitions.length);
    for (const name of serverNames) expect(browserNames.has(name)).toBe(false);
    const firstLazy = catalog.findIndex((tool) => tool.lazy);
    expect(catalog.slice(firstLazy).every((tool) => tool.lazy)).toBe(true);
  });

  it('mixes server and browser tools among the lazy ones, and several need approval', () => {
    expect(lazyTools.filter((tool) => serverNames.has(tool.name)).length).toBeGreaterThan(0);
    expect(lazyTools.filter((tool) => browserNames.has(tool.name)).length).toBeGreaterThan(0);
    expect(catalog.filter((tool) => tool.needsApproval !== false).length).toBeGreaterThanOrEqual(3);
  });

  it('has a summary sentence in every description', () => {
    for (const tool of catalog) {
      expect(tool.description, tool.name).toMatch(/^[A-Z].{10,}?[.!?](\s|$)/);
      expect(tool.description.length, tool.name).toBeLessThan(400);
    }
  });

  it('keeps the names, flags and schemas the end-to-end tests rely on', async () => {
    const byName = new Map<string, AnyTool>(catalog.map((tool) => [tool.name, tool]));
    const tool = (name: string) => {
      const found = byName.get(name);
      if (!found) throw new Error(`missing ${name}`);
      return found;
    };
    for (const name of ['getWeather', 'searchProducts', 'refundOrder', 'fetchPreferences']) {
      expect(serverNames.has(name), name).toBe(true);
      expect(tool(name).lazy, name).toBe(false);
    }
    for (const name of ['setTheme', 'showBanner', 'highlightMessage', 'applyPreferences']) {
      expect(browserNames.has(name), name).toBe(true);
      expect(tool(name).lazy, name).toBe(false);
    }
    for (const name of ['addTodo', 'setAccentColor', 'scrollToTop']) {
      expect(browserNames.has(name), name).toBe(true);
      expect(tool(name).lazy, name).toBe(true);
    }
    for (const name of [
      'sendEmail',
      'cancelOrder',
      'trackShipment',
      'convertCurrency',
      'compareProducts',
      'calculateFinancing',
      'createCalendarEvent',
      'findFreeSlot',
      'searchEmails',
      'searchFiles',
    ]) {
      expect(serverNames.has(name), name).toBe(true);
      expect(tool(name).lazy, name).toBe(true);
    }
    expect(tool('refundOrder').needsApproval).toBe(true);
    expect(tool('highlightMessage').needsApproval).toBe(true);
    expect(tool('sendEmail').needsApproval).toBe(true);
    const cancelRule = tool('cancelOrder').needsApproval;
    expect(typeof cancelRule).toBe('function');
    if (typeof cancelRule === 'function') {
      expect(cancelRule({ orderId: 'ORD-1234' })).toBe(true);
      expect(cancelRule({ orderId: 'TEST-1' })).toBe(false);
    }
    const accepts = async (name: string, input: unknown) => (await validateToolInput(tool(name), input)).ok;
    expect(await accepts('fetchPreferences', {})).toBe(true);
    expect(await accepts('setTheme', { theme: 'dark' })).toBe(true);
    expect(await accepts('setTheme', { theme: 'blue' })).toBe(false);
    expect(await accepts('compareProducts', { productIds: ['P-1001'] })).toBe(false);
    expect(await accepts('sendEmail', { to: 'not an address', subject: 's', body: 'b' })).toBe(false);
  });

  it('gives lazy discovery plenty to save', () => {
    const size = lazyTools.reduce(
      (total, tool) => total + JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }).length,
      0,
    );
    expect(size).toBeGreaterThanOrEqual(12_000);
  });
});

describe('the demo server tools', () => {
  it('implement every server definition, and only those', () => {
    expect(serverTools.map((tool) => tool.name).sort()).toEqual([...serverNames].sort());
    for (const tool of serverTools) expect(tool.kind).toBe('server');
  });

  it('return small results that match their output schemas for scripted-model arguments', async () => {
    let checked = 0;
    for (const tool of tools) {
      const args = argumentsFromText('', tool.parameters, tool.name);
      const input = await validateToolInput(tool, args);
      if (!input.ok) continue;
      checked++;
      const output: unknown = await tool.execute(input.value, context());
      const valid = await validateToolOutput(tool, output);
      expect(valid.ok, valid.ok ? tool.name : valid.error).toBe(true);
      expect(JSON.stringify(output).length, tool.name).toBeLessThan(600);
    }
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  it('are deterministic and match the documented examples', async () => {
    const run = async (name: string, input: unknown) => {
      const tool = tools.find((candidate) => candidate.name === name);
      if (!tool) throw new Error(`missing ${name}`);
      const parsed = await validateToolInput(tool, input);
      if (!parsed.ok) throw new Error(parsed.error);
      const output: unknown = await tool.execute(parsed.value, context());
      expect((await validateToolOutput(tool, output)).ok).toBe(true);
      return output;
    };
    const paris = await run('getWeather', { city: 'Paris' });
    expect(paris).toEqual(await run('getWeather', { city: 'Paris' }));
    expect(paris).toMatchObject({ city: 'Paris', celsius: expect.any(Number), conditions: expect.any(String) });
    expect(await run('fetchPreferences', {})).toEqual({ theme: 'dark', language: 'en', banner: 'Welcome back!' });
    expect(await run('refundOrder', { orderId: 'ORD-1234' })).toMatchObject({ orderId: 'ORD-1234', status: 'pending' });
    expect(await run('convertCurrency', { amount: 100, from: 'USD', to: 'EUR' })).toMatchObject({ converted: 92, rate: 0.92 });
    const found = (await run('searchProducts', { query: 'headphones', maxResults: 2 })) as { results: { name: string }[] };
    expect(found.results[0]?.name).toMatch(/Headphones/);
    expect((await run('compareProducts', { productIds: ['P-1001', 'P-1002'] })) as object).toMatchObject({ cheapest: 'P-1002' });
  });

  it('fail clearly for the demo error input', async () => {
    const track = tools.find((tool) => tool.name === 'trackShipment') as AnyServerTool;
    await expect(Promise.resolve().then(() => track.execute({ trackingNumber: 'BROKEN' }, context()))).rejects.toThrow(
      'Carrier API unavailable',
    );
  });

  it('simulate latency only when asked, and stop waiting on abort', async () => {
    const slowWeather = (createServerTools({ delayMs: 40 }) as readonly AnyServerTool[]).find(
      (tool) => tool.name === 'getWeather',
    ) as AnyServerTool;
    vi.useFakeTimers();
    try {
      let answered = false;
      const call = Promise.resolve(slowWeather.execute({ city: 'Oslo' }, context())).then((output) => ((answered = true), output));
      await vi.advanceTimersByTimeAsync(39);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await expect(call).resolves.toMatchObject({ city: 'Oslo' });
      const controller = new AbortController();
      const pending = slowWeather.execute({ city: 'Oslo' }, { toolCallId: 'call_abort', signal: controller.signal });
      controller.abort(new Error('stopped'));
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      vi.useRealTimers();
    }
  });
});
