/**
 * The one error vocabulary: every rule the domain enforces fails with a stable `code`, which
 * the HTTP layer maps to a status (see apps/api/src/http/error.filter.ts).
 */
export type DomainErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'precondition_failed'
  | 'too_many_requests'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string, details?: Record<string, unknown>) => new DomainError('conflict', message, details);
export const badRequest = (message: string) => new DomainError('bad_request', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const unprocessable = (message: string, details?: Record<string, unknown>) =>
  new DomainError('unprocessable', message, details);
