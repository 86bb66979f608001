/** What a backup archive holds, first in it (`manifest.json`). */
export interface BackupManifest {
  format: 'quire-backup';
  formatVersion: 1;
  createdAt: string;
  installationId?: string;
  /** The database the events came from (`postgres` or `pglite`); a restore may go to either. */
  database: 'postgres' | 'pglite';
  /** `events.ndjson`: one event a line, in global order, as stored. */
  events: { file: string; count: number; sha256: string };
  /** `spaces/<spaceId>.git`: the space repositories, bare. Import caches are not kept (they refill). */
  spaces: string[];
}

export const MANIFEST_FILE = 'manifest.json';
export const EVENTS_FILE = 'events.ndjson';
export const SPACES_DIR = 'spaces';

/** Files a writer leaves only for a moment (git's temporary objects, lock files): never archived. */
export function isTransientRepositoryFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.startsWith('tmp_obj_') || name.endsWith('.lock');
}
