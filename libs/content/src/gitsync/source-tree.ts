/** The only way the git-sync reader sees a repository: a git tree, a checkout on disk or
 * a map in a test all fit behind it. */
export interface SourceTree {
  /** All file paths relative to the repository root, '/'-separated. */
  files(): string[];
  read(path: string): Promise<Uint8Array | undefined>;
  /** Blob id of a file, where the tree knows it (git), for callers that cache by content. */
  oidOf?(path: string): string | undefined;
  /** Why the commit has something at a path `files()` does not list (a submodule, a link
   * that leads nowhere), to say more than "missing"; undefined when there is nothing there. */
  absent?(path: string): string | undefined;
}

const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

export async function readText(tree: SourceTree, path: string): Promise<string | undefined> {
  const bytes = await tree.read(path);
  if (bytes === undefined) return undefined;
  return utf8.decode(bytes).replace(/^\uFEFF/, '');
}

/** Builds the path set once per tree: callers resolve many links against the same tree. */
const fileSets = new WeakMap<SourceTree, ReadonlySet<string>>();
export function fileSetOf(tree: SourceTree): ReadonlySet<string> {
  let set = fileSets.get(tree);
  if (!set) {
    set = new Set(tree.files());
    fileSets.set(tree, set);
  }
  return set;
}

export function memorySourceTree(files: Record<string, string | Uint8Array>): SourceTree {
  const entries = new Map(
    Object.entries(files).map(([path, content]) => [
      path,
      typeof content === 'string' ? encoder.encode(content) : content,
    ]),
  );
  return {
    files: () => [...entries.keys()],
    read: async (path) => entries.get(path),
  };
}
