import { isMap, isScalar, parseDocument } from 'yaml';

/** The settings of `.gitbook.yaml` that Quire's side may change: where the first page and the
 * table of contents are, and the redirects. */
const STRUCTURE_KEYS = ['readme', 'summary'] as const;

/**
 * The repository's `.gitbook.yaml` with Quire's changes merged in: every setting Quire changed
 * since `base` (the space's copy when it was last in sync with the branch) is set in the
 * repository's copy, every other setting, comment and byte of it stays. Without `base` (a first
 * export), Quire's redirects the repository lacks are added and nothing is removed. Returns
 * undefined when nothing changes: the repository's bytes are kept.
 */
export function mergeGitbookConfig(input: { theirs: string; ours: string; base?: string }): string | undefined {
  const theirs = parseDocument(input.theirs);
  const ours = parseDocument(input.ours);
  if (theirs.errors.length || ours.errors.length) return undefined;
  const base = input.base === undefined ? undefined : parseDocument(input.base);
  const value = (doc: ReturnType<typeof parseDocument> | undefined, path: string[]): unknown => {
    const node = doc?.getIn(path, true);
    return isScalar(node) ? node.value : node === undefined ? undefined : doc!.getIn(path);
  };
  let changed = false;
  const set = (path: string[], next: unknown) => {
    if (value(theirs, path) === next) return;
    if (next === undefined) theirs.deleteIn(path);
    else theirs.setIn(path, next);
    changed = true;
  };

  const redirects = (doc: ReturnType<typeof parseDocument> | undefined): Map<string, unknown> => {
    const node = doc?.get('redirects', true);
    const out = new Map<string, unknown>();
    if (isMap(node)) for (const pair of node.items) out.set(String(isScalar(pair.key) ? pair.key.value : pair.key), isScalar(pair.value) ? pair.value.value : undefined);
    return out;
  };
  const [ourRedirects, baseRedirects] = [redirects(ours), redirects(base)];
  for (const from of new Set([...ourRedirects.keys(), ...baseRedirects.keys()])) {
    const next = ourRedirects.get(from);
    if (base ? next === baseRedirects.get(from) : next === undefined) continue;
    set(['redirects', from], next);
  }
  if (base) {
    for (const key of STRUCTURE_KEYS) {
      const next = value(ours, ['structure', key]);
      if (next !== value(base, ['structure', key])) set(['structure', key], next);
    }
  }
  return changed ? theirs.toString() : undefined;
}
