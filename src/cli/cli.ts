/**
 * The kh-address command line: export the dataset, manage keys and plans.
 *
 * In this repository: npm run cli -- export --format csv --level province
 */
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { exportDataset, type ExportFormat } from '../gazetteer/export.js';
import { loadGazetteer } from '../gazetteer/load.js';
import { LEVELS, type Level } from '../gazetteer/types.js';
import { loadGeography } from '../geo/geography.js';
import { ConfigError } from '../config.js';
import { StoreError } from '../keys/store.js';
import { REVERSE_USAGE, reverseCsv, reverseInput, ReverseInputError } from './reverse-command.js';
import { STORE_USAGE, storeCommand, UsageError } from './store-commands.js';

const USAGE = `Usage:
  kh-address export --format json|csv [--level ${LEVELS.join('|')}]
      Write every unit (or one level) to standard output.
${REVERSE_USAGE}
${STORE_USAGE}`;

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

export async function run(argv: string[], out: Writable = process.stdout, err: Writable = process.stderr, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'export':
        await exportCommand(rest, out);
        return 0;
      case 'reverse':
        await write(out, reverseCsv(reverseInput(rest), loadGazetteer(), loadGeography()));
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
    if (error instanceof StoreError || error instanceof ConfigError || error instanceof ReverseInputError || error instanceof SyntaxError
      || (error as { code?: string }).code === 'ENOENT') {
      err.write(`kh-address: ${(error as Error).message}\n`);
      return 1;
    }
    // parseArgs reports unknown or malformed options with codes starting ERR_PARSE_ARGS.
    const isUsage = error instanceof UsageError || String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS');
    err.write(`kh-address: ${(error as Error).message}\n${isUsage ? `${USAGE}\n` : ''}`);
    return isUsage ? 2 : 1;
  }
}

