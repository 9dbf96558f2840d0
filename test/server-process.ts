/**
 * Runs the real server (src/server.ts, or `args` for node: a build's file) as a child process on a free port, for tests
 * that need processes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: no shutdown, nothing flushed. */
  kill9(): Promise<void>;
}

export async function startServer(env: Record<string, string>, { args = ['--import', 'tsx', 'src/server.ts'] }: { args?: string[] } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    // No load shedding unless a test asks for it: on a busy machine the server would answer 503 (issue 14, item 15).
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DEV_KEY: 'off', MAX_EVENT_LOOP_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: on a busy 2-core machine a start from the TypeScript sources has taken over 10 s. On time-out the
    // child is killed, so that a failed start cannot keep the test process (and the suite) waiting forever.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 120 s:\n${output}`));
    }, 120_000);
    const onData = () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      const [code] = await exited;
      return code as number | null;
    },
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
