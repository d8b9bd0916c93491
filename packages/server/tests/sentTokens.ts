import { decode, encode } from 'gpt-tokenizer';
import { expect } from 'vitest';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import type { ModelRequest } from '@chatwire/server';

/*
 * Tokens of what an adapter sent, counted from outside: the request's text encoded whole with
 * gpt-tokenizer, each token's place found by decoding it, and a part of the request holding the
 * tokens that start in it. Independent of the server's own counting (tests compare the two).
 */

/** A request as an adapter serialised it: its text, and where its parts are. */
export interface Serialised {
  readonly text: string;
  readonly system?: readonly [number, number];
  readonly tools: readonly [number, number] | undefined;
  readonly discoveryTool: readonly [number, number] | undefined;
}

/** JSON text built part by part, recording where the parts are. */
export class JsonText {
  text = '';
  add(piece: string): readonly [number, number] {
    const start = this.text.length;
    this.text += piece;
    return [start, this.text.length];
  }
}

/** The tool list's text, and where the whole list and the discovery tool are in it. */
export function addTools(json: JsonText, tools: readonly { readonly name: string }[]) {
  let list: [number, number] | undefined;
  let discoveryTool: readonly [number, number] | undefined;
  tools.forEach((tool, index) => {
    const span = json.add(`${index > 0 ? ',' : ''}${JSON.stringify(tool)}`);
    list = [list?.[0] ?? span[0], span[1]];
    if (tool.name === DISCOVERY_TOOL_NAME) discoveryTool = span;
  });
  return { tools: list, discoveryTool };
}

/** The scripted model receives the request itself; as sent, it is its JSON. */
export function scriptedSerialisation(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): Serialised {
  const json = new JsonText();
  json.add('{"system":');
  const system = json.add(JSON.stringify(request.system ?? ''));
  json.add(`,"messages":${JSON.stringify(request.messages)},"tools":[`);
  const tools = addTools(json, request.tools);
  json.add(']}');
  expect(json.text).toBe(JSON.stringify({ system: request.system ?? '', messages: request.messages, tools: request.tools }));
  return { text: json.text, system, ...tools };
}

/** Tokens of a text, each with the offset it starts at (decoded one by one: these texts are ASCII). */
export function tokensOf(text: string): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const id of encode(text)) {
    starts.push(at);
    at += decode([id]).length;
  }
  expect(at).toBe(text.length);
  return starts;
}

export const within = (starts: readonly number[], span: readonly [number, number] | undefined) =>
  span ? starts.filter((start) => start >= span[0] && start < span[1]).length : 0;

/** Tokens of the tool list (the definitions and the commas between them) where it sits in the scripted model's request. */
export function sentToolTokens(request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>): number {
  const sent = scriptedSerialisation(request);
  return within(tokensOf(sent.text), sent.tools);
}
