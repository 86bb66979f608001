import { GitExportError } from '@quire/content/export';
import { scrubSecrets } from '@quire/content/import';
import { isTransient as isTransientImportFailure } from '../git-import/git-import-failures';

/** Where an export run is, so that a failure can say what failed. */
export type GitExportPhase = 'prepare' | 'push' | 'record';

const PHASE_FAILED: Record<GitExportPhase, string> = {
  prepare: 'Reading the space for the export failed',
  push: 'Pushing to the repository failed',
  record: 'Recording the export failed',
};

/** Whether a failure may pass on a retry: the remote's own verdict for git errors, the
 * import's rules (network, a busy database or Redis, a lost race) for anything else. */
export function isTransientExportFailure(err: unknown): boolean {
  if (err instanceof GitExportError) return err.transient;
  return isTransientImportFailure(err);
}

/** The reason recorded on GitExportFailed: a git failure's own code and message, or
 * `internal` naming the phase; never a credential. */
export function exportFailureReason(err: unknown, phase: GitExportPhase, secrets: string[]): { code: string; message: string } {
  const scrub = (text: string) => scrubSecrets(text, secrets);
  if (err instanceof GitExportError) {
    const retried = err.transient ? ' (after retries)' : '';
    return { code: err.code, message: scrub(err.message) + retried };
  }
  const detail = scrub(err instanceof Error ? err.message : String(err)).slice(0, 300);
  const retried = isTransientExportFailure(err) ? ' (after retries)' : '';
  return { code: 'internal', message: `${PHASE_FAILED[phase]}${retried}: ${detail}. Trigger the export again; if it fails the same way, see the worker logs` };
}
