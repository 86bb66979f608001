import { ChangeRequestState, walkPages } from '@quire/domain';
import { ContentStore } from '@quire/content/store';

/** A line that opens and one that closes a conflict block, as the 3-way merge writes them. */
function hasConflictMarkers(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return /^<{7}(?: |$)/m.test(text) && /^>{7}(?: |$)/m.test(text);
}

/**
 * The pages and files the last update left conflicting that still hold conflict markers in
 * the change request's head (found by page id, then by path), by their current path.
 */
export async function pagesWithConflictMarkers(content: ContentStore, spaceId: string, state: ChangeRequestState): Promise<string[]> {
  const recorded = state.updateConflicts;
  const head = state.head;
  // An update that left conflicts recorded its own revision, so the head has a tree.
  if (!recorded || !head) return [];
  const ids = new Set(recorded.pageIds);
  const paths = new Set(recorded.paths);
  const candidates = new Map<string, string>();
  for (const { page } of walkPages(head.pages)) {
    if (page.blob && (ids.has(page.id) || paths.has(page.path))) candidates.set(page.path || page.title, page.blob);
  }
  for (const file of head.files) if (paths.has(file.file)) candidates.set(file.file, file.blob);
  const marked = await Promise.all(
    [...candidates].map(async ([path, blob]) => (hasConflictMarkers(await content.readBlob(spaceId, blob)) ? path : undefined)),
  );
  return marked.filter((p): p is string => p !== undefined);
}
