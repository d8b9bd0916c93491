import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import prettier from 'prettier';
import { afterAll, describe, expect, it } from 'vitest';
import { appSteps, extractBlocks, namedFile } from '../checkSnippets.mjs';

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

describe('appSteps: the app a chain of documents builds', () => {
  const folder = mkdtempSync(join(tmpdir(), 'chatwire-app-steps-test-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const first = join(folder, 'first.md');
  const second = join(folder, 'second.md');
  writeFileSync(
    first,
    [
      `${fence}sh`,
      'npm install not-run # an unmarked block is prose',
      fence,
      `${fence}ts`,
      '// src/tools.ts: shared',
      "import { toolDefinition } from '@chatwire/core';",
      "export const ping = toolDefinition({ name: 'ping', description: 'Pings.', inputSchema: { type: 'object', properties: {} } });",
      fence,
      '<!-- snippet: fragment -->',
      `${fence}ts`,
      '// src/skipped.ts',
      'id?: string',
      fence,
    ].join('\n'),
  );
  writeFileSync(
    second,
    [
      `<!-- snippet: continues ${first} -->`,
      '<!-- snippet: run -->',
      `${fence}sh`,
      '# a comment',
      'npm install left-pad   # and a note',
      fence,
      '<!-- snippet: file mcp.json -->',
      `${fence}json`,
      '{ "mcpServers": {} }',
      fence,
      `${fence}ts`,
      '// src/server.ts',
      "import { createChatHandler, createScriptedModel } from '@chatwire/server';",
      "import { ping } from './tools.ts';",
      'export const POST = createChatHandler({ model: createScriptedModel(), tools: [ping.server(() => ({ ok: true }))] });',
      fence,
    ].join('\n'),
  );

  it('follows the continued document first, then this one: named files, marked files and marked commands, in order', () => {
    const steps = appSteps(second);
    expect(steps.map((step) => (step.kind === 'file' ? step.path : step.commands))).toEqual([
      'src/tools.ts',
      ['npm install left-pad'],
      'mcp.json',
      'src/server.ts',
    ]);
    expect(steps[0]).toMatchObject({ where: `${first}:4`, context: '' });
    expect(steps[2]).toMatchObject({ code: '{ "mcpServers": {} }', where: `${second}:8` });
  });

  it("compiles a continuing document's blocks with the files of the document it continues", () => {
    const output = execFileSync('node', ['scripts/checkSnippets.mjs', second], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(output).toContain('snippets: 1 code blocks from 1 documents compile');
  });

  it('refuses a chain that comes back to a document', () => {
    const loop = join(folder, 'loop.md');
    writeFileSync(loop, `<!-- snippet: continues ${loop} -->\n`);
    expect(() => appSteps(loop)).toThrow(/continues itself/);
  });
});

describe('examples/full is the docs’ app grown further', () => {
  // The files a reader of the README, docs/mcp.md and docs/threads.md ends with (the last version of each).
  const docsFiles = new Map(appSteps('docs/threads.md').flatMap((step) => (step.kind === 'file' ? [[step.path, step.code]] : [])));

  for (const file of ['src/tools.ts', 'src/server.ts', 'vite.config.ts']) {
    it(`its ${file} is the docs' ${file}, byte for byte`, () => {
      expect(docsFiles.has(file)).toBe(true);
      expect(readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'full', file), 'utf8')).toBe(`${docsFiles.get(file)}\n`);
    });
  }
});

describe("the recipes' page is the README's Chat.tsx", () => {
  const examples = join(import.meta.dirname, '..', '..', 'examples');
  // The README's block, without the line that names its file, laid out by the repository's Prettier as the examples are
  // (the README writes it denser to read on one screen; Prettier is the only difference allowed).
  const readmeChat = async (filepath) => {
    const blocks = appSteps('README.md').filter((step) => step.kind === 'file' && step.path === 'src/Chat.tsx');
    expect(blocks).toHaveLength(1);
    const code = blocks[0].code.replace(/^\/\/ src\/Chat\.tsx\n/, '');
    return prettier.format(code, { ...(await prettier.resolveConfig(filepath)), filepath });
  };

  for (const recipe of ['vite', 'express', 'hono'])
    it(`examples/${recipe}/src/Chat.tsx is the README's, as Prettier lays it out`, async () => {
      const file = join(examples, recipe, 'src', 'Chat.tsx');
      expect(readFileSync(file, 'utf8')).toBe(await readmeChat(file));
    });

  it("examples/nextjs/app/Chat.tsx is the README's with the two changes docs/recipes.md names: 'use client', no .ts in imports", async () => {
    const file = join(examples, 'nextjs', 'app', 'Chat.tsx');
    const expected = `'use client';\n\n${(await readmeChat(file)).replace("from './tools.ts';", "from '../src/tools';")}`;
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});
