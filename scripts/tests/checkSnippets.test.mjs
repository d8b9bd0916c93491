import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractBlocks, namedFile } from '../checkSnippets.mjs';

const fence = '```';

describe('extractBlocks', () => {
  it('finds ts and tsx blocks with their line, a fragment marker and a hidden context; other languages are left alone', () => {
    const markdown = [
      '# Title',
      `${fence}sh`,
      'npm start',
      fence,
      '<!-- snippet: fragment -->',
      `${fence}ts`,
      'id?: string',
      fence,
      '<!-- snippet: context',
      'declare const model: string;',
      '-->',
      `${fence}tsx`,
      'const a = <b>{model}</b>;',
      fence,
    ].join('\n');
    const blocks = extractBlocks(markdown);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatchObject({ language: 'ts', code: 'id?: string', line: 6, fragment: true, context: '' });
    expect(blocks[1]).toMatchObject({
      language: 'tsx',
      code: 'const a = <b>{model}</b>;',
      line: 12,
      fragment: false,
      context: 'declare const model: string;',
    });
  });

  it('names a file from the first comment, with folders but never outside the snippet folder', () => {
    expect(namedFile('// src/tools.ts: shared by both\nexport {}')).toBe('src/tools.ts');
    expect(namedFile('// vite.config.ts\nexport {}')).toBe('vite.config.ts');
    expect(namedFile('// ../escape.ts\n')).toBeUndefined();
    expect(namedFile('// not a file name\n')).toBeUndefined();
    expect(namedFile('const x = 1;')).toBeUndefined();
  });
});

describe('node scripts/checkSnippets.mjs <document>', () => {
  const folder = mkdtempSync(join(tmpdir(), 'chatwire-snippets-test-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const check = (markdown) => {
    const file = join(folder, `doc${Math.random().toString(36).slice(2)}.md`);
    writeFileSync(file, markdown);
    try {
      return {
        ok: true,
        output: execFileSync('node', ['scripts/checkSnippets.mjs', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
      };
    } catch (error) {
      return { ok: false, output: `${error.stdout}${error.stderr}` };
    }
  };

  it('passes blocks that compile against the packages, one importing another by its file name', () => {
    const result = check(
      [
        `${fence}ts`,
        '// src/tools.ts',
        "import { toolDefinition } from '@chatwire/core';",
        "export const ping = toolDefinition({ name: 'ping', description: 'Pings.', inputSchema: { type: 'object', properties: {} } });",
        fence,
        `${fence}ts`,
        "import { createChatHandler, createScriptedModel } from '@chatwire/server';",
        "import { ping } from './src/tools.ts';",
        'export const POST = createChatHandler({ model: createScriptedModel(), tools: [ping.server(() => ({ ok: true }))] });',
        fence,
      ].join('\n'),
    );
    expect(result.output).toContain('snippets: 2 code blocks from 1 documents compile');
    expect(result.ok).toBe(true);
  });

  it('fails on a block that uses an undefined name or a wrong type, naming the document and the line', () => {
    const result = check(
      ['Some prose.', '', `${fence}ts`, "import { useChat } from '@chatwire/react';", 'useChat({ api: 42 });', 'applyTheme();', fence].join(
        '\n',
      ),
    );
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/TS2322|TS2769/);
    expect(result.output).toMatch(/TS2304: Cannot find name 'applyTheme'/);
    expect(result.output).toMatch(/\.md:5:\d+/); // useChat(...) is on the document's line 5
    expect(result.output).toMatch(/\.md:6:1/);
  });
});
