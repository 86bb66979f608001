import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

export type { Logger } from 'pino';

/** Structured JSON logs (pino); secrets are redacted by path wherever they could appear. */
export function createLogger(opts: { level: string; pretty?: boolean; name?: string }): Logger {
  return pino({
    level: opts.level,
    name: opts.name ?? 'quire',
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.password', '*.token', '*.secrets', 'url.password'],
      censor: '[redacted]',
    },
    transport: opts.pretty ? { target: 'pino-pretty', options: { colorize: true } } : undefined,
  });
}

/** Lets Nest's own Logger calls land in the same pino stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('LOGGER');
