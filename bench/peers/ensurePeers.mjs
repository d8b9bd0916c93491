// Installs bench/peers' own dependencies (the AI SDK 7 and Mastra, which declare Node 22) when they
// are missing or were installed from another package-lock.json. The benchmark commands run it first
// (`npm run bench`, `bench:vitest`, `bench:size`, `bench:search`), so the repository's own `npm ci`
// never installs them and prints no engine warning on Node 20.19.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = import.meta.dirname;
const stamp = join(folder, 'node_modules', '.chatwire-lock-hash');
const lockHash = createHash('sha256')
  .update(readFileSync(join(folder, 'package-lock.json')))
  .digest('hex');
const installed = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';

if (installed !== lockHash) {
  const major = Number(process.versions.node.split('.')[0]);
  console.log(
    `Installing the benchmark peers in bench/peers (npm ci)…${major < 22 ? ' They declare Node 22; on Node ' + process.versions.node + ' npm warns (EBADENGINE), and the benchmarks run.' : ''}`,
  );
  execSync('npm ci --no-audit --no-fund', { cwd: folder, stdio: 'inherit' });
  writeFileSync(stamp, `${lockHash}\n`);
}
