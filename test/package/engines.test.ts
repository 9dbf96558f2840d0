/**
 * `npm install` on the oldest Node that package.json's `engines` admits must not warn EBADENGINE (issue 14, item 20):
 * every package in the lockfile admits that version. cookie@2 and content-disposition@3 (wanting Node 22) are
 * overridden in package.json with cookie@1.1 and content-disposition@2, which have the same functions the fastify
 * plugins call; ESLint 10 needs Node 20.19, hence engines >=20.19.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import semver from 'semver';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('engines', () => {
  const pkg = read('package.json') as { engines: { node: string } };
  const lock = read('package-lock.json') as { packages: Record<string, { version?: string; engines?: unknown }> };
  const oldest = semver.minVersion(pkg.engines.node)!;

  it(`every locked package admits the oldest Node that engines promises (${oldest.version})`, () => {
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = typeof entry.engines === 'object' && entry.engines !== null ? (entry.engines as { node?: string }).node : undefined;
      return range && !semver.satisfies(oldest, range) ? [`${path}@${entry.version}: node ${range}`] : [];
    });
    assert.deepEqual(refusing, []);
  });

  it('the lockfile is the one of package.json (npm ci uses it)', () => {
    const root = lock.packages[''] as { engines?: { node?: string } };
    assert.equal(root.engines?.node, pkg.engines.node);
  });
});
