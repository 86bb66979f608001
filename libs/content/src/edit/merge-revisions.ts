import { diff3Merge, mergeFiles, mergeText, type ContentStore, type FileVersion, type RevisionFileInput } from '../store';
import { EditablePage, EditableRevision, pageText } from './editable-revision';

export type RevisionMergeConflictKind =
  /** Both sides changed the same lines of a page: its text carries conflict markers. */
  | 'content'
  /** One side deleted a page the other changed: the changed page is kept. */
  | 'delete-modify'
  /** Both sides changed a page's title, slug or link differently: ours is kept. */
  | 'metadata'
  /** Both sides moved a page to different places (or into each other): ours is kept. */
  | 'structure'
  /** A file other than a page (an asset...) conflicts; see mergeFiles. */
  | 'file';

export interface RevisionMergeConflict {
  kind: RevisionMergeConflictKind;
  /** The page's path in the merged tree, or the file's repository path. */
  path: string;
  pageId?: string;
}

export interface MergeRevisionsOptions {
  store: ContentStore;
  base: EditableRevision;
  ours: EditableRevision;
  theirs: EditableRevision;
  /** Names after the conflict markers. */
  labels?: { ours?: string; theirs?: string };
}

export interface MergedRevision {
  revision: EditableRevision;
  /** Empty for a clean merge. */
  conflicts: RevisionMergeConflict[];
}

interface Flat {
  page: EditablePage;
  parent: string | null;
  index: number;
}

type Side = 'ours' | 'theirs';

/**
 * Three-way merge of two revisions by page, not by file: pages are matched by their stable
 * ids, so a page that moved, was renamed or gained children on one side (which changes its
 * file path in the git-sync layout) still merges with edits of its text on the other, and two
 * sides adding pages at the same place both keep theirs (the table of contents is merged as
 * ordered lists of ids, not as lines of SUMMARY.md). Texts both sides changed are merged line
 * by line (diff3). Other files (assets...) are merged by path with mergeFiles. Nothing either
 * side changed is dropped: where changes cannot be combined, the result keeps ours (or the
 * changed side of a delete/modify) and the conflict is reported.
 */
export async function mergeRevisions(opts: MergeRevisionsOptions): Promise<MergedRevision> {
  const { store } = opts;
  const B = flatten(opts.base.pages);
  const O = flatten(opts.ours.pages);
  const T = flatten(opts.theirs.pages);
  const conflicts: Array<{ kind: RevisionMergeConflictKind; pageId: string }> = [];
  const merged = new Map<string, EditablePage>();
  const sideOf = new Map<string, Side | 'both' | 'base'>();

  const ids = [...new Set([...O.keys(), ...T.keys(), ...B.keys()])];
  const pending: Array<Promise<void>> = [];
  for (const id of ids) {
    const b = B.get(id)?.page;
    const o = O.get(id)?.page;
    const t = T.get(id)?.page;
    if (!o && !t) continue;
    if (!o || !t) {
      const kept = (o ?? t)!;
      if (b && !changed(b, kept)) continue; // deleted on one side, untouched on the other
      if (b) conflicts.push({ kind: 'delete-modify', pageId: id });
      merged.set(id, { ...kept, children: [] });
      sideOf.set(id, o ? 'ours' : 'theirs');
      continue;
    }
    const page: EditablePage = { id, kind: o.kind, title: o.title, slug: o.slug, children: [] };
    let metadataConflict = false;
    for (const key of ['kind', 'title', 'slug', 'linkTitle', 'href'] as const) {
      const { value, conflict } = pick(b?.[key], o[key], t[key]);
      if (value !== undefined) (page as any)[key] = value;
      metadataConflict ||= conflict;
    }
    if (metadataConflict) conflicts.push({ kind: 'metadata', pageId: id });
    // Where the page's file is: not the user's to conflict on (the layout moves it only when its slug changes).
    const file = pick(b?.file, o.file, t.file).value ?? o.file ?? t.file;
    if (file) page.file = file;
    const [kb, ko, kt] = [b && contentKey(b), contentKey(o), contentKey(t)];
    const take = (from: EditablePage) => {
      if (from.blob !== undefined) page.blob = from.blob;
      if (from.markdown !== undefined) page.markdown = from.markdown;
    };
    if (ko === kt || kt === kb) take(o);
    else if (ko === kb) take(t);
    else {
      pending.push(
        (async () => {
          const [baseText, oursText, theirsText] = await Promise.all([
            b ? pageText(store, opts.base.spaceId, b) : '',
            pageText(store, opts.ours.spaceId, o),
            pageText(store, opts.theirs.spaceId, t),
          ]);
          const result = mergeText({ base: baseText, ours: oursText, theirs: theirsText, labels: opts.labels });
          page.markdown = result.text;
          if (result.conflicts > 0) conflicts.push({ kind: 'content', pageId: id });
        })(),
      );
    }
    merged.set(id, page);
    sideOf.set(id, 'both');
  }
  await Promise.all(pending);

  // A page kept on one side under a parent the other side deleted brings that parent back.
  const parentOf = (id: string): string | null => {
    const side = sideOf.get(id);
    const po = O.get(id)?.parent;
    const pt = T.get(id)?.parent;
    if (side === 'ours') return po!;
    if (side === 'theirs') return pt!;
    if (side === 'base') return B.get(id)!.parent;
    const { value, conflict } = pick(B.get(id)?.parent, po!, pt!);
    if (conflict) conflicts.push({ kind: 'structure', pageId: id });
    return value as string | null;
  };
  const parents = new Map<string, string | null>();
  const queue = [...merged.keys()];
  while (queue.length > 0) {
    const id = queue.shift()!;
    const parent = parentOf(id);
    parents.set(id, parent);
    if (parent !== null && !merged.has(parent)) {
      const revived = O.get(parent)?.page ?? T.get(parent)?.page ?? B.get(parent)?.page;
      if (!revived) {
        parents.set(id, null);
        continue;
      }
      merged.set(parent, { ...revived, children: [] });
      sideOf.set(parent, O.has(parent) ? 'ours' : T.has(parent) ? 'theirs' : 'base');
      conflicts.push({ kind: 'delete-modify', pageId: parent });
      queue.push(parent);
    }
  }
  // Groups live at the root only; moves that cross each other would make a cycle: ours wins.
  for (const [id, page] of merged) {
    if (page.kind === 'group') parents.set(id, null);
    const seen = new Set<string>([id]);
    for (let p = parents.get(id) ?? null; p !== null; p = parents.get(p) ?? null) {
      if (seen.has(p)) {
        const ours = O.get(id)?.parent;
        parents.set(id, ours !== undefined && ours !== p ? ours : null);
        conflicts.push({ kind: 'structure', pageId: id });
        break;
      }
      seen.add(p);
    }
  }

  // Sibling order: the lists of ids under each parent, merged like lines of text.
  const [childrenB, childrenO, childrenT, childrenMerged] = [childLists(B), childLists(O), childLists(T), new Map<string | null, string[]>()];
  for (const [id, p] of parents) {
    const list = childrenMerged.get(p);
    if (list) list.push(id);
    else childrenMerged.set(p, [id]);
  }
  const build = (parent: string | null): EditablePage[] => {
    const order: string[] = [];
    for (const chunk of diff3Merge(childrenB.get(parent) ?? [], childrenO.get(parent) ?? [], childrenT.get(parent) ?? [])) {
      if (chunk.kind === 'ok') order.push(...chunk.lines);
      else order.push(...chunk.ours, ...chunk.theirs);
    }
    // Pages that reach this parent otherwise (moved here, or revived) go after the sibling
    // they follow on the side they come from.
    const placed = new Set(order);
    for (const id of childrenMerged.get(parent) ?? []) {
      if (placed.has(id)) continue;
      const side = sideOf.get(id) === 'theirs' ? childrenT : sideOf.get(id) === 'base' ? childrenB : O.has(id) ? childrenO : childrenT;
      const list = side.get(parent) ?? [];
      let at = 0;
      for (let i = list.indexOf(id) - 1; i >= 0; i--) {
        const before = order.indexOf(list[i]);
        if (before >= 0) {
          at = before + 1;
          break;
        }
      }
      order.splice(list.includes(id) ? at : order.length, 0, id);
      placed.add(id);
    }
    const seen = new Set<string>();
    const pages: EditablePage[] = [];
    for (const id of order) {
      if (seen.has(id) || parents.get(id) !== parent || !merged.has(id)) continue;
      seen.add(id);
      const page = merged.get(id)!;
      page.children = build(id);
      pages.push(page);
    }
    return pages;
  };
  const pages = build(null);

  const files = await mergeFiles({
    base: versions(opts.base.otherFiles),
    ours: versions(opts.ours.otherFiles),
    theirs: versions(opts.theirs.otherFiles),
    readBlob: (oid) => store.readBlob(opts.ours.spaceId, oid),
    labels: opts.labels,
  });
  const otherFiles = new Map<string, RevisionFileInput>(Object.entries(files.files));
  const fileIds = new Map<string, string>();
  for (const source of [opts.base.fileIds, opts.theirs.fileIds, opts.ours.fileIds]) for (const [path, id] of source) if (otherFiles.has(path)) fileIds.set(path, id);

  const paths = pathsOf(pages);
  const reported = new Set<string>();
  const out: RevisionMergeConflict[] = [];
  for (const c of conflicts) {
    const key = `${c.kind}:${c.pageId}`;
    if (reported.has(key)) continue;
    reported.add(key);
    out.push({ kind: c.kind, pageId: c.pageId, path: paths.get(c.pageId) ?? c.pageId });
  }
  for (const c of files.conflicts) out.push({ kind: 'file', path: c.path });
  return {
    revision: { revision: opts.ours.revision, spaceId: opts.ours.spaceId, docsRoot: opts.ours.docsRoot, pages, otherFiles, fileIds },
    conflicts: out,
  };
}

/** Child ids under each parent (null: the root), in order. */
function childLists(flat: Map<string, Flat>): Map<string | null, string[]> {
  const out = new Map<string | null, string[]>();
  for (const f of flat.values()) {
    const list = out.get(f.parent);
    if (list) list[f.index] = f.page.id;
    else {
      const created: string[] = [];
      created[f.index] = f.page.id;
      out.set(f.parent, created);
    }
  }
  return out;
}

function flatten(pages: readonly EditablePage[]): Map<string, Flat> {
  const out = new Map<string, Flat>();
  const walk = (list: readonly EditablePage[], parent: string | null) =>
    list.forEach((page, index) => {
      out.set(page.id, { page, parent, index });
      walk(page.children, page.id);
    });
  walk(pages, null);
  return out;
}

/** Three-way pick of one value: the side that changed it wins; both changing it differently is a conflict (ours kept). */
function pick<T>(base: T | undefined, ours: T, theirs: T): { value: T; conflict: boolean } {
  if (ours === theirs || theirs === base) return { value: ours, conflict: false };
  if (ours === base) return { value: theirs, conflict: false };
  return { value: ours, conflict: true };
}

function contentKey(page: EditablePage): string {
  return page.markdown !== undefined ? `text:${page.markdown}` : `blob:${page.blob ?? ''}`;
}

function changed(base: EditablePage, side: EditablePage): boolean {
  return (
    contentKey(base) !== contentKey(side) ||
    base.title !== side.title ||
    base.slug !== side.slug ||
    base.kind !== side.kind ||
    base.href !== side.href ||
    base.linkTitle !== side.linkTitle
  );
}

function versions(files: ReadonlyMap<string, RevisionFileInput>): Map<string, FileVersion> {
  const out = new Map<string, FileVersion>();
  for (const [path, file] of files) {
    if (file instanceof Uint8Array) throw new Error(`mergeRevisions: ${path} is not a stored file`);
    out.set(path, { oid: file.oid, mode: file.mode ?? '100644' });
  }
  return out;
}

function pathsOf(pages: readonly EditablePage[], prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const page of pages) {
    const path = page.kind === 'link' ? prefix : prefix ? `${prefix}/${page.slug}` : page.slug;
    out.set(page.id, page.kind === 'link' ? page.title : path);
    pathsOf(page.children, path, out);
  }
  return out;
}
