/** Typed configuration from the environment. Every variable is listed in the README. */
export interface Config {
  /** TCP port to listen on. `PORT`, default 3000. */
  port: number;
  /** Interface to bind. `HOST`, default 127.0.0.1 (set 0.0.0.0 in a container). */
  host: string;
  /** pino log level. `LOG_LEVEL`, default info. */
  logLevel: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A bad configuration value: the message names the variable and what it accepts. */
export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT)}`);
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
  }
  return { port, host: env.HOST || '127.0.0.1', logLevel };
}
