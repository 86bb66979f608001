import { diff3Merge, mergeText, splitLines } from './diff3';
import { internLines, matchSequences } from './myers-diff';

const lines = (text: string) => splitLines(text);

/** Classic dynamic-programming LCS length: the reference the Myers diff must reach. */
function lcsLength(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[b.length];
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('splitLines', () => {
  it('keeps line endings so joining restores the text', () => {
    expect(splitLines('a\nb\r\n\nc')).toEqual(['a\n', 'b\r\n', '\n', 'c']);
    expect(splitLines('a\n')).toEqual(['a\n']);
    expect(splitLines('')).toEqual([]);
    for (const text of ['x', '\n\n', 'a\r\nb', 'é\nü\n']) expect(splitLines(text).join('')).toBe(text);
  });
});

describe('matchSequences (Myers diff)', () => {
  it('matches equal sequences one to one', () => {
    expect([...matchSequences([1, 2, 3], [1, 2, 3])]).toEqual([0, 1, 2]);
  });

  it('handles empty sides', () => {
    expect([...matchSequences([], [1, 2])]).toEqual([]);
    expect([...matchSequences([1, 2], [])]).toEqual([-1, -1]);
  });

  it('finds the common subsequence around an insertion and a deletion', () => {
    // a b c d  ->  a x c d e : b deleted, x and e inserted
    expect([...matchSequences([1, 2, 3, 4], [1, 9, 3, 4, 5])]).toEqual([0, -1, 2, 3]);
  });

  it('finds nothing in common between disjoint sequences', () => {
    expect([...matchSequences([1, 2, 3], [4, 5])]).toEqual([-1, -1, -1]);
  });

  it('reaches the longest common subsequence on random inputs, with monotone matches', () => {
    const next = random(42);
    for (let round = 0; round < 500; round++) {
      const alphabet = 2 + Math.floor(next() * 6);
      const gen = () => Array.from({ length: Math.floor(next() * 40) }, () => Math.floor(next() * alphabet));
      const a = gen();
      const b = gen();
      const match = matchSequences(a, b);
      let last = -1;
      let count = 0;
      match.forEach((j, i) => {
        if (j < 0) return;
        expect(a[i]).toBe(b[j]);
        expect(j).toBeGreaterThan(last);
        last = j;
        count++;
      });
      expect(count).toBe(lcsLength(a, b));
    }
  });

  it('stays fast and small on a file rewritten from top to bottom', () => {
    const a = Array.from({ length: 20000 }, (_, i) => i);
    const b = Array.from({ length: 20000 }, (_, i) => (i % 3 === 0 ? i : 100000 + i));
    const started = performance.now();
    const match = matchSequences(a, b);
    expect(match.filter((j) => j >= 0).length).toBe(Math.ceil(20000 / 3));
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('stays within seconds when thousands of shared lines move around', () => {
    const next = random(3);
    const a = Array.from({ length: 5000 }, () => Math.floor(next() * 50));
    const b = Array.from({ length: 5000 }, () => Math.floor(next() * 50));
    const started = performance.now();
    matchSequences(a, b);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('interns lines to shared ids across sequences', () => {
    const [x, y] = internLines(['a', 'b', 'a'], ['b', 'c']);
    expect([...x]).toEqual([0, 1, 0]);
    expect([...y]).toEqual([1, 2]);
  });
});

describe('diff3Merge', () => {
  const base = lines('one\ntwo\nthree\nfour\nfive\n');

  it('returns the base when nobody changed anything', () => {
    expect(diff3Merge(base, base, base)).toEqual([{ kind: 'ok', lines: base }]);
  });

  it('takes the only side that changed', () => {
    const ours = lines('one\nTWO\nthree\nfour\nfive\n');
    expect(diff3Merge(base, ours, base)).toEqual([{ kind: 'ok', lines: ours }]);
    expect(diff3Merge(base, base, ours)).toEqual([{ kind: 'ok', lines: ours }]);
  });

  it('merges changes to different lines cleanly', () => {
    const ours = lines('one\nTWO\nthree\nfour\nfive\n');
    const theirs = lines('one\ntwo\nthree\nFOUR\nfive\nsix\n');
    expect(diff3Merge(base, ours, theirs)).toEqual([{ kind: 'ok', lines: lines('one\nTWO\nthree\nFOUR\nfive\nsix\n') }]);
  });

  it('accepts the same change made on both sides', () => {
    const both = lines('one\ntwo\n3\nfour\nfive\n');
    expect(diff3Merge(base, both, both)).toEqual([{ kind: 'ok', lines: both }]);
  });

  it('merges an insertion on one side with a deletion elsewhere on the other', () => {
    const ours = lines('zero\none\ntwo\nthree\nfour\nfive\n');
    const theirs = lines('one\ntwo\nthree\nfive\n');
    expect(diff3Merge(base, ours, theirs)).toEqual([{ kind: 'ok', lines: lines('zero\none\ntwo\nthree\nfive\n') }]);
  });

  it('reports a conflict where both sides changed the same line differently', () => {
    const ours = lines('one\ntwo\nTHREE\nfour\nfive\n');
    const theirs = lines('one\ntwo\n3\nfour\nfive\n');
    expect(diff3Merge(base, ours, theirs)).toEqual([
      { kind: 'ok', lines: lines('one\ntwo\n') },
      { kind: 'conflict', base: ['three\n'], ours: ['THREE\n'], theirs: ['3\n'] },
      { kind: 'ok', lines: lines('four\nfive\n') },
    ]);
  });

  it('treats changes on adjacent lines as a conflict, as git does', () => {
    const ours = lines('one\nTWO\nthree\nfour\nfive\n');
    const theirs = lines('one\ntwo\nTHREE\nfour\nfive\n');
    const chunks = diff3Merge(base, ours, theirs);
    expect(chunks.filter((c) => c.kind === 'conflict')).toHaveLength(1);
  });

  it('conflicts when one side edits a line the other deleted', () => {
    const ours = lines('one\ntwo\nTHREE\nfour\nfive\n');
    const theirs = lines('one\ntwo\nfour\nfive\n');
    expect(diff3Merge(base, ours, theirs)).toEqual([
      { kind: 'ok', lines: lines('one\ntwo\n') },
      { kind: 'conflict', base: ['three\n'], ours: ['THREE\n'], theirs: [] },
      { kind: 'ok', lines: lines('four\nfive\n') },
    ]);
  });

  it('conflicts when both sides insert different lines at the same place', () => {
    const ours = lines('one\ntwo\nours\nthree\nfour\nfive\n');
    const theirs = lines('one\ntwo\ntheirs\nthree\nfour\nfive\n');
    expect(diff3Merge(base, ours, theirs)).toEqual([
      { kind: 'ok', lines: lines('one\ntwo\n') },
      { kind: 'conflict', base: [], ours: ['ours\n'], theirs: ['theirs\n'] },
      { kind: 'ok', lines: lines('three\nfour\nfive\n') },
    ]);
  });

  it('keeps lines both sides wrote at the edges of a conflict out of the markers', () => {
    const ours = lines('one\nsame start\nours\nsame end\nfive\n');
    const theirs = lines('one\nsame start\ntheirs\nsame end\nfive\n');
    expect(diff3Merge(base, ours, theirs)).toEqual([
      { kind: 'ok', lines: lines('one\nsame start\n') },
      { kind: 'conflict', base: lines('two\nthree\nfour\n'), ours: ['ours\n'], theirs: ['theirs\n'] },
      { kind: 'ok', lines: lines('same end\nfive\n') },
    ]);
  });

  it('merges an empty base (add/add) where the additions agree, conflicts where they differ', () => {
    const chunks = diff3Merge([], lines('# Title\nours\n'), lines('# Title\ntheirs\n'));
    expect(chunks).toEqual([
      { kind: 'ok', lines: ['# Title\n'] },
      { kind: 'conflict', base: [], ours: ['ours\n'], theirs: ['theirs\n'] },
    ]);
  });

  it('handles both sides emptying the file, or one side emptying an unchanged file', () => {
    expect(diff3Merge(base, [], [])).toEqual([]);
    expect(diff3Merge(base, [], base)).toEqual([]);
  });

  it('resolves random one-sided edits to that side', () => {
    const next = random(7);
    for (let round = 0; round < 200; round++) {
      const original = Array.from({ length: Math.floor(next() * 30) }, () => `l${Math.floor(next() * 8)}\n`);
      const edited = original.filter(() => next() > 0.2).flatMap((l) => (next() > 0.8 ? [l, `new${round}\n`] : [l]));
      const joined = (chunks: ReturnType<typeof diff3Merge>) =>
        chunks.flatMap((c) => (c.kind === 'ok' ? c.lines : ['<conflict>']));
      expect(joined(diff3Merge(original, edited, original))).toEqual(edited);
      expect(joined(diff3Merge(original, original, edited))).toEqual(edited);
      expect(joined(diff3Merge(original, edited, edited))).toEqual(edited);
    }
  });
});

describe('mergeText', () => {
  const base = '# Page\n\nIntro.\n\nMiddle.\n\nEnd.\n';

  it('merges edits to different paragraphs without conflicts', () => {
    const ours = '# Page\n\nIntro, edited.\n\nMiddle.\n\nEnd.\n';
    const theirs = '# Page\n\nIntro.\n\nMiddle.\n\nEnd, edited.\n';
    expect(mergeText({ base, ours, theirs })).toEqual({
      text: '# Page\n\nIntro, edited.\n\nMiddle.\n\nEnd, edited.\n',
      conflicts: 0,
    });
  });

  it('writes git-style markers around conflicting lines', () => {
    const ours = '# Page\n\nIntro.\n\nMiddle (ours).\n\nEnd.\n';
    const theirs = '# Page\n\nIntro.\n\nMiddle (theirs).\n\nEnd.\n';
    expect(mergeText({ base, ours, theirs })).toEqual({
      text: '# Page\n\nIntro.\n\n<<<<<<< ours\nMiddle (ours).\n=======\nMiddle (theirs).\n>>>>>>> theirs\n\nEnd.\n',
      conflicts: 1,
    });
  });

  it('uses the labels it is given and counts each conflict block', () => {
    const ours = 'A\nsame\nB\n';
    const theirs = 'a\nsame\nb\n';
    const result = mergeText({ base: 'x\nsame\ny\n', ours, theirs, labels: { ours: 'change request', theirs: 'space' } });
    expect(result.conflicts).toBe(2);
    expect(result.text).toBe(
      '<<<<<<< change request\nA\n=======\na\n>>>>>>> space\nsame\n<<<<<<< change request\nB\n=======\nb\n>>>>>>> space\n',
    );
  });

  it('puts markers on their own lines when the last line has no newline', () => {
    const result = mergeText({ base: 'a\nb', ours: 'a\nours', theirs: 'a\ntheirs' });
    expect(result.text).toBe('a\n<<<<<<< ours\nours\n=======\ntheirs\n>>>>>>> theirs\n');
  });

  it('keeps CRLF line endings, markers included', () => {
    const result = mergeText({ base: 'a\r\nb\r\n', ours: 'a\r\nB1\r\n', theirs: 'a\r\nB2\r\n' });
    expect(result.text).toBe('a\r\n<<<<<<< ours\r\nB1\r\n=======\r\nB2\r\n>>>>>>> theirs\r\n');
  });

  it('merges non-ASCII text by lines', () => {
    const result = mergeText({ base: '簡介\n內容\n結尾\n', ours: '簡介（新）\n內容\n結尾\n', theirs: '簡介\n內容\n結尾 ✅\n' });
    expect(result).toEqual({ text: '簡介（新）\n內容\n結尾 ✅\n', conflicts: 0 });
  });
});
