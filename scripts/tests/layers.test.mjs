import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderCycles } from '../folderCycles.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The repository's own ESLint config (eslint.config.js), with type information off for the fixtures: they
 * exist only as text (`lintText`), and the layer rules read import specifiers, not types.
 */
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    {
      files: ['packages/*/src/**/*.ts'],
      ...tseslint.configs.disableTypeChecked,
      languageOptions: { parserOptions: { projectService: false } },
    },
  ],
});

/** The layer and placement messages ESLint reports for `code` as if it were the file at `filePath`. */
async function layerMessages(filePath, code) {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return result.messages
    .filter((message) => message.ruleId === 'no-restricted-imports' || message.ruleId === 'no-restricted-syntax')
    .map((message) => message.message);
}

describe('the server layer rule (SERVER_LAYERS in eslint.config.js)', () => {
  it('reports an upward import, in every import form, naming the layer crossed', async () => {
    const fixtures = [
      "import { runChat } from '../loop/runChat.js';\nexport const run = runChat;\n",
      "export { createChatHandler } from '../serve/handler.js';\n",
      "export const later = () => import('../threads/threadStore.js');\n",
      "export type Handler = import('../serve/handler.js').ChatHandlerOptions;\n",
    ];
    for (const code of fixtures) {
      const messages = await layerMessages('packages/server/src/model/layerFixture.ts', code);
      expect(messages, code).toHaveLength(1);
      expect(messages[0]).toMatch(/packages\/server\/src\/model is below tools, .*serve: it may import only binding, .*model /);
    }
  });

  it('reports an import of an entry and of the package itself', async () => {
    for (const code of [
      "import { chat } from '../index.js';\nexport { chat };\n",
      "import { chat } from '@chatwire/server';\nexport { chat };\n",
    ]) {
      expect(await layerMessages('packages/server/src/loop/layerFixture.ts', code), code).toHaveLength(1);
    }
  });

  it('lets a folder import its own folder and the folders below it', async () => {
    const code =
      "import type { ChatModel } from '../model/chatModel.js';\nimport { runChat } from './runChat.js';\nexport type { ChatModel };\nexport { runChat };\n";
    expect(await layerMessages('packages/server/src/loop/layerFixture.ts', code)).toEqual([]);
    expect(
      await layerMessages(
        'packages/server/src/adapters/scripted/layerFixture.ts',
        "export { ProviderError } from '../../errors/providerErrors.js';\n",
      ),
    ).toEqual([]);
  });

  it('reports a file outside the listed folders, and a loose file beside the entries', async () => {
    const [unlisted] = await layerMessages('packages/server/src/misc/layerFixture.ts', 'export const x = 1;\n');
    expect(unlisted).toMatch(/not a layer/);
    const [loose] = await layerMessages('packages/server/src/layerFixture.ts', 'export const x = 1;\n');
    expect(loose).toMatch(/^Only the entries \(index, extension, testing\)/);
    expect(await layerMessages('packages/server/src/testing.ts', 'export const x = 1;\n')).toEqual([]);
  });

  it('still reports an upward import in core (CORE_LAYERS, the same generator)', async () => {
    const messages = await layerMessages(
      'packages/core/src/base/layerFixture.ts',
      "export { ChatClient } from '../runtime/chatClient.js';\n",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/packages\/core\/src\/base is below /);
  });
});

describe('the packages built on the server (code-mode, mcp) import only its public entries', () => {
  it('reports /testing and a path into its sources, and accepts @chatwire/server and /extension', async () => {
    for (const file of ['packages/code-mode/src/layerFixture.ts', 'packages/mcp/src/layerFixture.ts']) {
      for (const code of [
        "export { argumentsFromText } from '@chatwire/server/testing';\n",
        "export { chat } from '../../server/src/loop/chat.js';\n",
      ]) {
        expect(await layerMessages(file, code), `${file}: ${code}`).toHaveLength(1);
      }
      const allowed = "export { chat } from '@chatwire/server';\nexport { extendTools } from '@chatwire/server/extension';\n";
      expect(await layerMessages(file, allowed), file).toEqual([]);
    }
  });
});

describe('folder cycles (scripts/folderCycles.mjs, dependency-cruiser)', () => {
  let fixture = '';
  beforeAll(async () => {
    // Three folders: a imports b, b imports c, c imports a (a cycle of three folders, no file cycle).
    fixture = await mkdtemp(join(tmpdir(), 'chatwire-folder-cycle-'));
    const files = {
      'a/one.ts': "import { two } from '../b/two.js';\nexport const one = (): number => two + 1;\n",
      'a/three.ts': 'export const three = 3;\n',
      'b/two.ts': "import { four } from '../c/four.js';\nexport const two = four - 2;\n",
      'c/four.ts': "import { three } from '../a/three.js';\nexport const four = three + 1;\n",
    };
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(fixture, name)), { recursive: true });
      await writeFile(join(fixture, name), text);
    }
  });
  afterAll(async () => {
    await rm(fixture, { recursive: true, force: true });
  });

  it('finds a cycle between folders that no single file closes', async () => {
    const cycles = await folderCycles([fixture]);
    expect(cycles.length).toBeGreaterThan(0);
    const folders = new Set(cycles.flatMap((found) => found.cycle.map((name) => name.split('/').at(-1))));
    expect([...folders].sort()).toEqual(['a', 'b', 'c']);
  });

  it('finds none between the folders of packages/server/src and packages/core/src', async () => {
    expect(await folderCycles([join(root, 'packages/server/src'), join(root, 'packages/core/src')])).toEqual([]);
  });
});
