import { createHash } from 'crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';
import { createInterface } from 'readline';
import * as tar from 'tar';
import { QuireConfig } from '@quire/platform/config/config';
import { openDb } from '@quire/platform/db/open-db';
import { ArchivedEvent, countStoredEvents, importEvents } from '@quire/event-store/sql/event-archive';
import { Runtime } from '@quire/infrastructure/runtime';
import { BackupManifest, EVENTS_FILE, MANIFEST_FILE, SPACES_DIR } from '../backup/backup-manifest';
import { replay } from '../replay/replay.command';
import { backfillRefs } from '../refs/refs.command';

type Out = Pick<NodeJS.WriteStream, 'write'>;

const BATCH = 1000;

export class RestoreRefusedError extends Error {}

/**
 * `npm run cli -- restore FILE`: an archive written by `backup` into an empty DATA_DIR and
 * database: the space repositories go back under DATA_DIR, the events into the event store as
 * they were (ids, stream versions, recording times), then every read model is rebuilt from them
 * and the repositories' refs are written from the events (the live branch at the live revision).
 * Refuses a DATA_DIR with space repositories or a database with events. No server may run on
 * that DATA_DIR and database meanwhile.
 */
export async function restore(config: QuireConfig, file: string, out: Out = process.stderr): Promise<BackupManifest> {
  if (config.eventStoreUrl) throw new RestoreRefusedError('restore writes events to PostgreSQL or the embedded database; unset EVENTSTORE_URL');
  if (!existsSync(file)) throw new RestoreRefusedError(`No such backup: ${file}`);
  const dataDir = resolve(config.dataDir);
  const spacesDir = join(dataDir, SPACES_DIR);
  if (existsSync(spacesDir) && readdirSync(spacesDir).length) throw new RestoreRefusedError(`DATA_DIR already holds space repositories (${spacesDir}): restore only into an empty DATA_DIR`);

  // Unpacked beside the destination, so the repositories move into place by a rename.
  mkdirSync(dataDir, { recursive: true });
  const staging = join(dataDir, `.restore-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  let manifest: BackupManifest;
  try {
    await tar.extract({ file, cwd: staging, strict: true });
    manifest = readManifest(staging);
    const eventsFile = join(staging, manifest.events.file);
    const digest = await sha256(eventsFile);
    if (digest !== manifest.events.sha256) throw new RestoreRefusedError(`The archive's events do not match its manifest (sha256 ${digest}, manifest ${manifest.events.sha256}): the file is damaged`);

    const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      const existing = await countStoredEvents(db);
      if (existing) throw new RestoreRefusedError(`The database already holds ${existing} events: restore only into an empty database`);
      if (existsSync(join(staging, SPACES_DIR))) renameSync(join(staging, SPACES_DIR), spacesDir);
      let restored = 0;
      let batch: ArchivedEvent[] = [];
      for await (const line of createInterface({ input: createReadStream(eventsFile), crlfDelay: Infinity })) {
        if (!line) continue;
        batch.push(JSON.parse(line) as ArchivedEvent);
        if (batch.length === BATCH) {
          await importEvents(db, batch);
          restored += batch.length;
          batch = [];
        }
      }
      await importEvents(db, batch);
      restored += batch.length;
      if (restored !== manifest.events.count) throw new Error(`Restored ${restored} events, the manifest says ${manifest.events.count}`);
      out.write(`restore: ${restored} events, ${manifest.spaces.length} space repositories\n`);
    } finally {
      await db.close();
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }

  const runtime = await Runtime.start(config, { runProjections: false, redis: false });
  try {
    await replay(runtime, [], out as NodeJS.WriteStream);
    // The archived refs may be ahead of the archived events (written while the backup ran).
    for (const spaceId of readdirSync(spacesDir).filter((n) => n.endsWith('.git')).map((n) => n.slice(0, -4))) dropQuireRefs(runtime.contentStore.repositoryPath(spaceId));
    const refs = await backfillRefs(runtime, out);
    if (refs.missing.length) out.write(`restore: ${refs.missing.length} revisions named by events are missing from the repositories; run check\n`);
  } finally {
    await runtime.stop();
  }
  return manifest;
}

function readManifest(dir: string): BackupManifest {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) throw new RestoreRefusedError('Not a Quire backup: the archive has no manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as BackupManifest;
  if (manifest.format !== 'quire-backup' || manifest.formatVersion !== 1) throw new RestoreRefusedError(`Not a Quire backup this version can restore (format ${manifest.format} v${manifest.formatVersion})`);
  if (manifest.events.file !== EVENTS_FILE || !existsSync(join(dir, EVENTS_FILE))) throw new RestoreRefusedError('The archive has no events file');
  return manifest;
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Removes the refs Quire keeps (the live branch and revision tips), loose and packed, so they are written again from the events. */
function dropQuireRefs(gitdir: string): void {
  rmSync(join(gitdir, 'refs', 'heads', 'main'), { force: true });
  rmSync(join(gitdir, 'refs', 'quire'), { recursive: true, force: true });
  const packed = join(gitdir, 'packed-refs');
  if (!existsSync(packed)) return;
  const kept = readFileSync(packed, 'utf8')
    .split('\n')
    .filter((line, i, lines) => {
      if (/ refs\/(heads\/main|quire\/)/.test(line)) return false;
      // A peeled line (`^oid`) belongs to the ref above it.
      return !(line.startsWith('^') && i > 0 && / refs\/(heads\/main|quire\/)/.test(lines[i - 1]));
    });
  writeFileSync(packed, kept.join('\n'));
}
