import { GitImportError } from '@quire/content/import';
import { WrongExpectedVersionError } from '@quire/event-store/event-store.port';

/** Where a run is, so that a failure can say what failed. */
export type GitImportPhase = 'prepare' | 'fetch' | 'write' | 'record';

/** Error codes of trouble that may pass: the network, a busy system, a lost race. */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH',
  'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'ECOMPROMISED', 'wrong_expected_version',
]);

/** Whether an error may pass on a retry. Anything not known to be transient (a bug, a missing
 * object, a bad repository) would fail the same way five times over. */
export function isTransient(err: unknown): boolean {
  if (err instanceof GitImportError) return err.transient;
  if (err instanceof WrongExpectedVersionError) return true;
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  if (e.code === 'NotFoundError') return false;
  if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return true;
  // PostgreSQL: connection exceptions, transaction rollbacks, insufficient resources, shutdowns.
  if (typeof e.code === 'string' && /^(08|40|53|57P)/.test(e.code) && e.code.length === 5) return true;
  return typeof e.message === 'string' && /Connection (is closed|terminated)|Stream isn't writeable/i.test(e.message);
}

const PHASE_FAILED: Record<GitImportPhase, string> = {
  prepare: 'Starting the import failed',
  fetch: 'Fetching and reading the repository failed',
  write: 'Writing the imported content to the space failed',
  record: 'Recording the imported revision failed',
};

/** The code and message a failed import is recorded with: one a user can act on, no secrets in it. */
export function failureReason(err: unknown, phase: GitImportPhase, scrub: (text: string) => string): { code: string; message: string } {
  if (err instanceof GitImportError) return { code: err.code, message: scrub(err.message) };
  const detail = scrub(err instanceof Error ? err.message : String(err)).slice(0, 300);
  const retried = isTransient(err) ? ' (after retries)' : '';
  return { code: 'internal', message: `${PHASE_FAILED[phase]}${retried}: ${detail}. Trigger the import again; if it fails the same way, see the worker logs` };
}
