import { mergeText } from './diff3';
import type { RevisionFileInput } from './write-revision';
import type { FileMode } from './space-repo';

export interface FileVersion {
  oid: string;
  mode: string;
}

export type MergeConflictKind =
  /** Both sides changed the file; a text file carries conflict markers, a binary one is
   * ours. */
  | 'content'
  /** One side deleted the file, the other changed it; the changed file is kept. */
  | 'delete-modify'
  /** Both sides added different files at the same path; a text file carries markers
   * around the lines that differ, a binary one is ours. */
  | 'add-add'
  /** The path is a file on one side and a folder on the other; the file is kept beside
   * the folder as `<path>~ours` or `<path>~theirs`. */
  | 'file-directory';

export interface MergeConflict {
  path: string;
  kind: MergeConflictKind;
}

export interface MergeFilesOptions {
  base: ReadonlyMap<string, FileVersion>;
  ours: ReadonlyMap<string, FileVersion>;
  theirs: ReadonlyMap<string, FileVersion>;
  readBlob: (oid: string) => Promise<Uint8Array>;
  /** Names after the conflict markers; `ours` and `theirs` by default. */
  labels?: { ours?: string; theirs?: string };
}

export interface MergeFilesResult {
  /** The merged revision, ready for writeRevision: unchanged files by oid, merged text
   * files as bytes. */
  files: Record<string, RevisionFileInput>;
  /** Sorted by path; empty for a clean merge. */
  conflicts: MergeConflict[];
}

type Side = 'ours' | 'theirs';

/**
 * Three-way merge of two file maps against their base: per file first (a side that left a
 * file as the base had it takes the other side's version), then per line for text files
 * both sides changed (diff3). Renames are not detected: a file renamed on one side and
 * changed on the other is a delete/modify conflict plus an added file.
 */
export async function mergeFiles(opts: MergeFilesOptions): Promise<MergeFilesResult> {
  const files: Record<string, RevisionFileInput> = {};
  const origin = new Map<string, Side>();
  const conflicts: MergeConflict[] = [];
  const paths = [...new Set([...opts.base.keys(), ...opts.ours.keys(), ...opts.theirs.keys()])].sort();

  const keep = (path: string, version: FileVersion, side: Side) => {
    files[path] = asInput(version);
    origin.set(path, side);
  };

  const textMerges: Array<Promise<void>> = [];
  for (const path of paths) {
    const base = opts.base.get(path);
    const ours = opts.ours.get(path);
    const theirs = opts.theirs.get(path);
    if (sameVersion(ours, theirs)) {
      if (ours) keep(path, ours, 'ours');
    } else if (sameVersion(ours, base)) {
      if (theirs) keep(path, theirs, 'theirs');
    } else if (sameVersion(theirs, base)) {
      if (ours) keep(path, ours, 'ours');
    } else if (!ours || !theirs) {
      const changed = (ours ?? theirs) as FileVersion;
      keep(path, changed, ours ? 'ours' : 'theirs');
      conflicts.push({ path, kind: 'delete-modify' });
    } else if (ours.oid === theirs.oid) {
      // Same content, and at least one side changed the mode: the side that changed it wins.
      keep(path, { oid: ours.oid, mode: base && ours.mode === base.mode ? theirs.mode : ours.mode }, 'ours');
    } else {
      keep(path, ours, 'ours');
      textMerges.push(
        mergeContent(path, base, ours, theirs, opts).then((merged) => {
          if (merged.bytes) files[path] = merged.bytes;
          if (merged.conflict) conflicts.push({ path, kind: base ? 'content' : 'add-add' });
        }),
      );
    }
  }
  await Promise.all(textMerges);
  separateFilesFromFolders(files, origin, conflicts);
  conflicts.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  return { files, conflicts };
}

async function mergeContent(
  path: string,
  base: FileVersion | undefined,
  ours: FileVersion,
  theirs: FileVersion,
  opts: MergeFilesOptions,
): Promise<{ bytes?: Uint8Array; conflict: boolean }> {
  const [baseBytes, oursBytes, theirsBytes] = await Promise.all([
    base ? opts.readBlob(base.oid) : new Uint8Array(0),
    opts.readBlob(ours.oid),
    opts.readBlob(theirs.oid),
  ]);
  const texts = [baseBytes, oursBytes, theirsBytes].map(decodeText);
  if (texts.some((text) => text === undefined)) return { conflict: true };
  const [baseText, oursText, theirsText] = texts as string[];
  const merged = mergeText({ base: baseText, ours: oursText, theirs: theirsText, labels: opts.labels });
  return { bytes: new TextEncoder().encode(merged.text), conflict: merged.conflicts > 0 };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Text is what git would diff: no NUL byte in the first 8,000 bytes; it must also be
 * UTF-8, the only encoding the pages are read in. */
function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function sameVersion(x: FileVersion | undefined, y: FileVersion | undefined): boolean {
  return x === y || (x !== undefined && y !== undefined && x.oid === y.oid && x.mode === y.mode);
}

function asInput(version: FileVersion): RevisionFileInput {
  return { oid: version.oid, mode: version.mode as FileMode };
}

/** A path cannot be a file and a folder in one tree: the file moves aside. */
function separateFilesFromFolders(
  files: Record<string, RevisionFileInput>,
  origin: ReadonlyMap<string, Side>,
  conflicts: MergeConflict[],
): void {
  const clashing = new Set<string>();
  for (const path of Object.keys(files)) {
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
      const folder = path.slice(0, slash);
      if (folder in files) clashing.add(folder);
    }
  }
  for (const path of clashing) {
    const moved = `${path}~${origin.get(path) ?? 'ours'}`;
    files[moved] = files[path];
    delete files[path];
    conflicts.push({ path, kind: 'file-directory' });
  }
}
