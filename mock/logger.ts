import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { OperationModel as Operation } from '../model/model.js';

/** Log levels of `--log-level`: pino's, and `silent` for none. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = Level | 'silent';

/** `auto`: readable lines on a terminal, one JSON object a line otherwise (a pipe, a file, CI). */
export type LogFormat = 'auto' | 'pretty' | 'json';

/** How to build the mock's logger. */
export interface LoggerOptions {
  /** Default `info` (one line per request); `warn` keeps warnings only; `silent` logs nothing. */
  level?: LogLevel;
  /** Default `auto`. */
  format?: LogFormat;
  /** Where lines go; default standard output (file descriptor 1). For tests, any writable stream. */
  destination?: DestinationStream;
}

/**
 * The mock's pino logger (README › Request log). Pretty lines (`12:00:01.234 INFO: GET /v1/pets 200 0.41 ms`)
 * on a TTY, JSON lines (`{"level":30,"time":...,"method":"GET","path":"/v1/pets","status":200,"ms":0.41,...}`)
 * otherwise. Nothing ever logs request headers, so `Authorization` never reaches the log.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const format = options.format ?? 'auto';
  const toTerminal = format === 'pretty' || (format === 'auto' && options.destination === undefined && process.stdout.isTTY === true);
  const base = { level, base: undefined } as const;
  if (!toTerminal) return pino(base, options.destination ?? pino.destination({ dest: 1, sync: false }));
  // Loaded only for pretty lines: a mock writing JSON lines (a pipe, CI, a container) starts without it (D642).
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  const stream = pretty({
    colorize: options.destination === undefined && process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'method,path,status,ms,operationId,sunset',
    sync: true,
    ...(options.destination === undefined ? {} : { destination: options.destination }),
  });
  return pino(base, stream);
}

/**
 * The server's `onResponse` hook for a logger: one `info` line per request with `method`, `path` (path and
 * query as sent), `status` and `ms` (time from the request to the end of the answer, 2 decimals).
 * `undefined` when the logger would drop `info` lines, so that a quiet mock does no per-request work.
 */
export function requestLogger(logger: Logger): ((request: IncomingMessage, status: number, milliseconds: number) => void) | undefined {
  if (!logger.isLevelEnabled('info')) return undefined;
  return (request, status, milliseconds) => {
    const ms = Math.round(milliseconds * 100) / 100;
    logger.info({ method: request.method, path: request.url, status, ms }, `${request.method} ${request.url} ${status} ${ms} ms`);
  };
}

/**
 * A warning when a deprecated operation is called (seed, Endpoints §3 and Versioning: `getPet` is deprecated,
 * removed on 5 December 2030): the first call warns, later ones at most once every `intervalMs` (default
 * 10 minutes), with the number of calls since the last warning, so that a polling page does not flood the log.
 */
export function deprecationWarner(logger: Logger, intervalMs = 10 * 60_000): (operation: Operation) => void {
  const last = new Map<string, { at: number; calls: number }>();
  return (operation) => {
    const now = Date.now();
    const seen = last.get(operation.operationId);
    if (seen !== undefined && now - seen.at < intervalMs) {
      seen.calls++;
      return;
    }
    const since = seen === undefined ? '' : ` (${seen.calls + 1} calls since the last warning)`;
    const sunset = operation.sunset === undefined ? '' : `; it is removed on ${new Date(`${operation.sunset}T00:00:00Z`).toUTCString()}`;
    logger.warn({ operationId: operation.operationId, sunset: operation.sunset }, `${operation.operationId} (${operation.method} ${operation.path}) is deprecated${sunset}${since}`);
    last.set(operation.operationId, { at: now, calls: 0 });
  };
}
