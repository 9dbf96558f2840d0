/**
 * The kh-address command line: export the dataset, manage keys and plans.
 *
 * In this repository: npm run cli -- export --format csv --level province
 */
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { exportDataset, type ExportFormat } from '../gazetteer/export.js';
import { loadGazetteer } from '../gazetteer/load.js';
import { LEVELS, type Level } from '../gazetteer/types.js';
import { ConfigError } from '../config.js';
import { StoreError } from '../keys/store.js';
import { API_VERSION } from '../version.js';
import { STORE_USAGE, storeCommand, UsageError } from './store-commands.js';
import { RESOLVE_USAGE, resolveCommand, ResolveUsageError } from './resolve-command.js';

const USAGE = `Usage:
  kh-address export --format json|csv [--level ${LEVELS.join('|')}]
      Write every unit (or one level) to standard output.
${RESOLVE_USAGE}
${STORE_USAGE}
  kh-address <command> --help          The usage of one command (export, resolve, keys, plans).
  kh-address --version                 The version.`;

const COMMANDS = ['export', 'resolve', 'keys', 'plans'];

/**
 * The usage of one command: the entries of USAGE that start with `kh-address <command>` (with the lines indented
 * under them), and the notes that apply to all (`All use ...`) when the command has a store.
 */
function usageOf(command: string, sub?: string): string {
  const entries: string[][] = [];
  for (const line of USAGE.split('\n').slice(1)) {
    if (/^ {2}\S/.test(line)) entries.push([line]);
    else entries.at(-1)?.push(line);
  }
  const of = (prefix: string) => entries.filter(([first]) => first!.startsWith(`  kh-address ${prefix} `));
  // `keys create --help`: that subcommand's entry, when it has one; else the whole command's.
  const own = (sub !== undefined && of(`${command} ${sub}`).length > 0) ? of(`${command} ${sub}`) : of(command);
  const notes = command === 'export' ? [] : entries.filter(([first]) => first!.startsWith('  All use'));
  return `Usage:\n${[...own, ...notes].flat().join('\n')}`;
}

const wantsHelp = (args: string[]) => args.some((a) => a === '--help' || a === '-h');

async function write(out: Writable, chunks: Iterable<string>): Promise<void> {
  for (const chunk of chunks) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
}

async function exportCommand(args: string[], out: Writable): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { format: { type: 'string' }, level: { type: 'string' } },
    strict: true,
  });
  const format = values.format;
  if (format !== 'json' && format !== 'csv') throw new UsageError('--format must be json or csv');
  const level = values.level;
  if (level !== undefined && !LEVELS.includes(level as Level)) {
    throw new UsageError(`--level must be one of ${LEVELS.join(', ')}`);
  }
  await write(out, exportDataset(loadGazetteer(), format as ExportFormat, level as Level | undefined));
}

export async function run(argv: string[], out: Writable = process.stdout, err: Writable = process.stderr, env: NodeJS.ProcessEnv = process.env,
  input: Readable = process.stdin): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === '--version' || command === '-V' || command === 'version') {
      out.write(`kh-address ${API_VERSION}\n`);
      return 0;
    }
    // `kh-address keys --help`, `kh-address keys create --help`, `kh-address help keys`: that command's usage.
    const helpTopic = command === 'help' && rest[0] !== undefined ? rest[0] : command !== undefined && COMMANDS.includes(command) && wantsHelp(rest) ? command : undefined;
    if (helpTopic !== undefined) {
      if (!COMMANDS.includes(helpTopic)) throw new UsageError(`unknown command: ${helpTopic}`);
      const args = command === 'help' ? rest.slice(1) : rest;
      out.write(`${usageOf(helpTopic, args.find((a) => !a.startsWith('-')))}\n`);
      return 0;
    }
    switch (command) {
      case 'export':
        await exportCommand(rest, out);
        return 0;
      case 'resolve':
        await resolveCommand(rest, out, err, input);
        return 0;
      case 'keys':
      case 'plans':
        await storeCommand(command, rest, (text) => out.write(`${text}\n`), env);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        out.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } catch (error) {
    // The reader went away (e.g. `| head`): not an error of ours.
    if ((error as { code?: string }).code === 'EPIPE') return 0;
    // Bad input the user can fix: a clear message and exit code 1, no stack.
    if (error instanceof StoreError || error instanceof ConfigError) {
      err.write(`kh-address: ${error.message}\n`);
      return 1;
    }
    // parseArgs reports unknown or malformed options with codes starting ERR_PARSE_ARGS.
    const isUsage = error instanceof UsageError || error instanceof ResolveUsageError || String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS');
    err.write(`kh-address: ${(error as Error).message}\n${isUsage ? `${USAGE}\n` : ''}`);
    return isUsage ? 2 : 1;
  }
}

