/** Repository paths are '/'-separated, relative to the repository root, without a leading
 * '/'. Directory prefixes such as a docs root are '' or end with '/'. */

/** Joins and normalises; returns undefined when the result climbs above the repository root. */
export function resolveRepoPath(baseDir: string, relative: string): string | undefined {
  const parts: string[] = [];
  const input = relative.startsWith('/') ? relative : `${baseDir}/${relative}`;
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
      continue;
    }
    parts.push(segment);
  }
  return parts.join('/');
}

/** '' or 'a/b/' style prefix for a directory given as './docs', 'docs/', '/docs' or '.'. */
export function toDirPrefix(dir: string | undefined): string | undefined {
  const resolved = resolveRepoPath('', dir ?? '');
  if (resolved === undefined) return undefined;
  return resolved === '' ? '' : `${resolved}/`;
}

export function dirnameOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function isMarkdownPath(path: string): boolean {
  return /\.md$/i.test(path);
}

export function isReadmePath(path: string): boolean {
  return basenameOf(path).toLowerCase() === 'readme.md';
}

/** Decodes %XX sequences that form valid UTF-8 and leaves anything else as written, so
 * a literal '%' in a file name does not make the whole link unusable. */
export function percentDecode(value: string): string {
  if (!value.includes('%')) return value;
  return value.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Looks a path up exactly, then case-insensitively (repositories edited on macOS or
 * Windows often hold `readme.md` or `Summary.md`). */
export function findFileIgnoringCase(files: ReadonlySet<string>, path: string): string | undefined {
  if (files.has(path)) return path;
  const wanted = path.toLowerCase();
  for (const file of files) if (file.toLowerCase() === wanted) return file;
  return undefined;
}
