import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { run } from '../../src/cli/cli.js';
import { API_VERSION } from '../../src/version.js';

/** Collects what a command writes. */
class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function cli(...argv: string[]) {
  const out = new Sink();
  const err = new Sink();
  const code = await run(argv, out, err);
  return { code, out: out.text, err: err.text };
}

describe('kh-address CLI', () => {
  it('exports provinces as JSON', async () => {
    const { code, out } = await cli('export', '--format', 'json', '--level', 'province');
    assert.equal(code, 0);
    const records = JSON.parse(out) as { code: string; postal_code: string }[];
    assert.equal(records.length, 25);
    assert.equal(records[11]!.code, '12');
    assert.equal(records[11]!.postal_code, '120000');
  });

  it('exports villages as CSV', async () => {
    const { code, out } = await cli('export', '--format=csv', '--level=village');
    assert.equal(code, 0);
    assert.equal(out.split('\r\n').filter(Boolean).length, 14578 + 1);
  });

  it('rejects bad input with a message, the usage and exit code 2', async () => {
    for (const argv of [['export'], ['export', '--format', 'xml'], ['export', '--format', 'json', '--level', 'city'],
      ['export', '--format', 'json', '--bogus'], ['frobnicate'], []]) {
      const { code, err, out } = await cli(...argv);
      assert.equal(code, 2, argv.join(' '));
      assert.match(err + out, /Usage:/, argv.join(' '));
    }
    assert.match((await cli('export', '--format', 'xml')).err, /--format must be json or csv/);
  });

  it('prints the version with --version (issue 14.19)', async () => {
    const { code, out } = await cli('--version');
    assert.equal(code, 0);
    assert.equal(out, `kh-address ${API_VERSION}\n`);
  });

  it('prints one command\'s usage with <command> --help, -h or help <command>, exit code 0 (issue 14.19)', async () => {
    for (const argv of [['keys', '--help'], ['keys', '-h'], ['help', 'keys']]) {
      const { code, out, err } = await cli(...argv);
      assert.equal(code, 0, argv.join(' '));
      assert.equal(err, '', argv.join(' '));
      assert.match(out, /^Usage:\n {2}kh-address keys create/, argv.join(' '));
      assert.doesNotMatch(out, /kh-address (plans|export)/, argv.join(' '));
      assert.match(out, /DATABASE_URL/);
    }
    const create = await cli('keys', 'create', '--help');
    assert.equal(create.code, 0);
    assert.match(create.out, /kh-address keys create \[--plan NAME\]/);
    assert.doesNotMatch(create.out, /keys revoke/);
    const exported = await cli('export', '--help');
    assert.equal(exported.code, 0);
    assert.match(exported.out, /kh-address export --format json\|csv/);
    assert.doesNotMatch(exported.out, /keys|DATABASE_URL/);
    assert.match((await cli('plans', 'update', '-h')).out, /plans update NAME/);
    // Not Node's parser wording ("Unknown option '--help'").
    assert.doesNotMatch(create.out + create.err, /Unknown option/);
    const unknown = await cli('frobnicate', '--help');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown command: frobnicate/);
  });

  it('runs as a program: npm run cli -- export prints all 16,465 records', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'export', '--format', 'json'],
      { maxBuffer: 64 * 1024 * 1024 });
    assert.equal((JSON.parse(stdout) as unknown[]).length, 16465);
  });
});
