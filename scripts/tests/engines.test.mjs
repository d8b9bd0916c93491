import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// `npm ci` warns EBADENGINE for every installed package whose `engines.node` excludes the running
// Node. The lockfile records each package's engines, so the install on the oldest Node the
// repository supports is checked here without installing anything.
const root = join(import.meta.dirname, '..', '..');
const read = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));

describe('the install on the oldest supported Node', () => {
  it('no package in package-lock.json declares an engine range that excludes it (npm ci prints no EBADENGINE)', () => {
    const oldest = semver.minVersion(read('package.json').engines.node).version;
    expect(oldest).toBe('20.19.0');
    const excluding = Object.entries(read('package-lock.json').packages)
      .filter(([, entry]) => typeof entry.engines?.node === 'string')
      .filter(([, entry]) => !semver.satisfies(oldest, entry.engines.node, { includePrerelease: true }))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} (node ${entry.engines.node})`);
    expect(excluding).toEqual([]);
  });
});
