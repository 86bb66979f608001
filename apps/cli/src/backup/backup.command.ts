import { createHash } from 'crypto';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'fs';
import { once } from 'events';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { finished } from 'stream/promises';
import * as tar from 'tar';
import { Runtime } from '@quire/infrastructure/runtime';
import { exportEvents } from '@quire/event-store/sql/event-archive';
import { BackupManifest, EVENTS_FILE, isTransientRepositoryFile, MANIFEST_FILE, SPACES_DIR } from './backup-manifest';

type Out = Pick<NodeJS.WriteStream, 'write'>;

/**
 * `npm run cli -- backup FILE`: one gzipped tar of the installation (manifest, events, space
 * repositories; import caches and read models left out: they are rebuilt), consistent while the
 * server runs on PostgreSQL. The events are read first, from one snapshot; the repositories are
 * archived after, and content is always written before the event that names it, so every commit
 * and blob of the archived events is in the archived repositories (objects written later are
 * extra and harmless; refs are rewritten from the events at restore). The archive appears under
 * FILE only once complete.
 */
export async function backup(runtime: Runtime, file: string, out: Out = process.stderr): Promise<BackupManifest> {
  if (runtime.config.eventStoreUrl) throw new Error('backup covers events kept in PostgreSQL or the embedded database; back up KurrentDB with its own tools');
  const staging = mkdtempSync(join(tmpdir(), 'quire-backup-'));
  const partial = `${file}.partial`;
  try {
    const hash = createHash('sha256');
    const events = createWriteStream(join(staging, EVENTS_FILE));
    const count = await exportEvents(runtime.db, async (batch) => {
      for (const event of batch) {
        const line = `${JSON.stringify(event)}\n`;
        hash.update(line);
        if (!events.write(line)) await once(events, 'drain');
      }
    });
    events.end();
    await finished(events);
    out.write(`backup: ${count} events\n`);

    const spacesDir = resolve(runtime.config.dataDir, SPACES_DIR);
    const spaces = existsSync(spacesDir) ? readdirSync(spacesDir).filter((name) => name.endsWith('.git')).map((name) => name.slice(0, -'.git'.length)).sort() : [];
    const manifest: BackupManifest = {
      format: 'quire-backup',
      formatVersion: 1,
      createdAt: new Date().toISOString(),
      installationId: runtime.config.installationId,
      database: runtime.db.kind,
      events: { file: EVENTS_FILE, count, sha256: hash.digest('hex') },
      spaces,
    };
    writeFileSync(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    // The repositories are archived in place (through a link the archiver follows), not copied first.
    if (spaces.length) symlinkSync(spacesDir, join(staging, SPACES_DIR), 'dir');
    await tar.create(
      { gzip: true, file: partial, cwd: staging, follow: true, portable: true, filter: (path) => !isTransientRepositoryFile(path) },
      [MANIFEST_FILE, EVENTS_FILE, ...(spaces.length ? [SPACES_DIR] : [])],
    );
    renameSync(partial, file);
    out.write(`backup: ${spaces.length} space repositories; written to ${file}\n`);
    return manifest;
  } finally {
    rmSync(partial, { force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}
