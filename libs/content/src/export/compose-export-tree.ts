/** A file of a tree: a blob (or, for a kept submodule, a commit) and its mode. */
export interface TreeFile {
  oid: string;
  mode: string;
}

export interface ComposeExportTreeInput {
  /** Every entry of the branch's current commit, by repository path (empty for a new branch). */
  remote: ReadonlyMap<string, TreeFile>;
  /** The space revision to export, by path relative to the docs root. */
  revision: ReadonlyMap<string, TreeFile>;
  /** The space revision holding the content of the branch's commit, when the space is in
   * sync with it: its files are the ones the space owns in the repository. */
  base?: ReadonlyMap<string, TreeFile>;
  /** Repository path prefix of the docs ('' or ending with '/'): the project directory, or
   * the `root` its `.gitbook.yaml` names. */
  docsRoot: string;
  /** Repository path of the table of contents (`structure.summary`, SUMMARY.md by default). */
  summaryPath: string;
  /** The repository has its own `.gitbook.yaml` in the project directory: it stays as it is. */
  remoteConfig: boolean;
  /** Revision path -> path of the same page in `base`, for pages Quire's editor laid out
   * elsewhere: the page stays at the path the repository knows. */
  renames?: ReadonlyMap<string, string>;
}

export interface ComposedExportTree {
  /** The commit's files, by repository path. */
  files: Map<string, TreeFile>;
  /** Oids of blobs taken from the space that the branch's tree does not hold (the only
   * objects the remote may lack). */
  fromSpace: Set<string>;
}

/**
 * The files of an export commit: the branch's tree with the space's part replaced by the
 * revision, changing nothing else.
 * - A file the space has not changed since it was in sync with the branch keeps the
 *   branch's entry as it is (same blob, same mode), even where Quire's copy differs in form:
 *   the SUMMARY.md and `.gitbook.yaml` Quire writes, a symbolic link it read as a file.
 * - A file the space removed is removed; files the space never held (sources, CI settings,
 *   other projects of a monorepo) stay.
 * - Without a revision in sync with the branch (a first export to a branch with content,
 *   a forced one), the space owns the markdown files and `.gitbook/assets/` of the docs root:
 *   those it no longer has are removed, anything else stays.
 */
export function composeExportTree(input: ComposeExportTreeInput): ComposedExportTree {
  const { docsRoot, remote, revision, base } = input;
  const target = (path: string): string | undefined => {
    if (path === 'SUMMARY.md') return input.summaryPath;
    if (path === '.gitbook.yaml') return input.remoteConfig ? undefined : `${docsRoot}.gitbook.yaml`;
    return docsRoot + path;
  };
  const basePath = (path: string) => input.renames?.get(path) ?? path;
  const files = new Map(remote);
  const written = new Set<string>();
  for (const path of revision.keys()) {
    const to = target(basePath(path));
    if (to !== undefined) written.add(to);
  }
  const owned = base ? [...base.keys()].map(target) : [...remote.keys()].filter((path) => path.startsWith(docsRoot) && isDocsFile(path.slice(docsRoot.length)));
  for (const path of owned) if (path !== undefined && !written.has(path)) files.delete(path);

  const fromSpace = new Set<string>();
  const inRemote = new Set([...remote.values()].map((file) => file.oid));
  for (const [path, file] of revision) {
    const to = target(basePath(path));
    if (to === undefined) continue;
    const unchanged = base?.get(basePath(path))?.oid === file.oid && files.has(to);
    if (unchanged) continue;
    files.set(to, file);
    if (!inRemote.has(file.oid)) fromSpace.add(file.oid);
  }
  return { files, fromSpace };
}

function isDocsFile(path: string): boolean {
  return /\.md$/i.test(path) || path.startsWith('.gitbook/assets/');
}
