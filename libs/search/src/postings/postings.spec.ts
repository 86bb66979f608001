import { decodePostings, encodePositions, encodePostings, pagePosition, patchPostings, readPositions } from './postings';
import { bestPages, evaluate, PageMatch, Scores } from './page-candidates';

describe('postings', () => {
  it('round-trips page keys and impacts through 8-byte records, at any byte offset', () => {
    const bytes = encodePostings([3, 7, 4_000_000_000], [0.5, 0.25, 1.5]);
    expect(bytes.byteLength).toBe(24);
    const shifted = new Uint8Array(bytes.byteLength + 1);
    shifted.set(bytes, 1);
    const { keys, impacts } = decodePostings(shifted.subarray(1));
    expect([...keys]).toEqual([3, 7, 4_000_000_000]);
    expect([...impacts]).toEqual([0.5, 0.25, 1.5]);
  });

  it('patches a list: removed pages out, new ones merged in by key, a re-added key replaced', () => {
    const fresh = (entries: Array<[number, number, number[]]>) => ({ keys: entries.map((e) => e[0]), impacts: entries.map((e) => e[1]), positions: entries.map((e) => e[2]) });
    const stored = encodePositions([[1], [2, 3], [16_385, 40_000]]);
    const current = decodePostings(encodePostings([2, 5, 9], [0.5, 0.5, 0.5]), stored);
    const next = patchPostings(current, new Set([5]), fresh([[1, 0.25, [7]], [9, 1, [3, 300]], [12, 2, [1, 2, 3]]]));
    expect([...next.keys]).toEqual([1, 2, 9, 12]);
    expect([...next.impacts]).toEqual([0.25, 0.5, 1, 2]);
    const decoded = decodePostings(encodePostings(next.keys, next.impacts), next.positions);
    expect([0, 1, 2, 3].map((i) => readPositions(decoded.positions!.bytes, decoded.positions!.offsets[i]))).toEqual([[7], [1], [3, 300], [1, 2, 3]]);
    expect([...patchPostings(undefined, new Set(), fresh([[4, 1, [1]]])).keys]).toEqual([4]);
    expect(patchPostings(current, new Set([2, 5, 9])).keys.length).toBe(0);
  });

  it('round-trips positions as varint deltas, large ones included, each page found by its offset', () => {
    const lists = [[1, 2, 127, 128, 16_383], [], [pagePosition(3, 5), pagePosition(1_000, 16_383), 2 ** 40]];
    const bytes = encodePositions(lists);
    const { positions } = decodePostings(encodePostings([1, 2, 3], [1, 1, 1]), bytes);
    expect([0, 1, 2].map((i) => readPositions(bytes, positions!.offsets[i]))).toEqual(lists);
    expect(positions!.offsets[3]).toBe(bytes.byteLength);
  });
});

describe('page matches over postings', () => {
  const list = (entries: Array<[number, number]>) => ({ keys: Uint32Array.from(entries.map((e) => e[0])), scores: Float64Array.from(entries.map((e) => e[1])) });
  const lists = new Map([
    ['buffer', list([[1, 0.5], [2, 0.25], [3, 0.1]])],
    ['plugin', list([[2, 0.5], [3, 0.5]])],
    ['buffered', list([[4, 0.75]])],
    ['bufferless', list([[1, 0.9]])],
  ]);
  const scores = (m: PageMatch) => {
    const found = evaluate(m, lists);
    return Object.fromEntries([...found.keys].map((k, i) => [k, Number(found.scores[i].toFixed(3))]));
  };

  it('requires every part for all, sums the impacts of those present', () => {
    expect(scores({ all: [{ lexeme: 'buffer' }, { lexeme: 'plugin' }] })).toEqual({ 2: 0.75, 3: 0.6 });
    expect(scores({ any: [{ lexeme: 'buffer' }, { lexeme: 'plugin' }] })).toEqual({ 1: 0.5, 2: 0.75, 3: 0.6 });
    expect(scores({ all: [{ lexeme: 'buffer' }, { lexeme: 'zebra' }] })).toEqual({});
    expect(scores({ all: [{ lexeme: 'buffer' }, { lexeme: 'plugin' }, { lexeme: 'bufferless' }] })).toEqual({});
    expect(scores({ all: [{ lexeme: 'buffer' }, { lexeme: 'zebra' }, { lexeme: 'plugin' }] })).toEqual({});
    expect(scores({ any: [{ lexeme: 'buffer' }, { lexeme: 'plugin' }, { lexeme: 'bufferless' }, { lexeme: 'buffered' }] })).toEqual({ 1: 1.4, 2: 0.75, 3: 0.6, 4: 0.75 });
  });

  it('takes a page at least the given number of parts hold', () => {
    expect(scores({ atLeast: 2, of: [{ lexeme: 'buffer' }, { lexeme: 'plugin' }, { lexeme: 'buffered' }] })).toEqual({ 2: 0.75, 3: 0.6 });
  });

  it('matches a phrase where its lexemes follow each other, by their positions', () => {
    const positional = (entries: Array<[number, number, number[]]>): Scores => {
      const bytes = encodePositions(entries.map((e) => e[2]));
      const { positions } = decodePostings(encodePostings(entries.map((e) => e[0]), entries.map((e) => e[1])), bytes);
      return { ...list(entries.map((e) => [e[0], e[1]])), positions: { rows: [bytes], row: new Uint32Array(entries.length), offset: positions!.offsets.subarray(0, entries.length) } };
    };
    const withPositions = new Map([
      // Page 1: "disk latency" at 4-5; page 2: both words apart; page 3: neighbours across two sections.
      ['disk', positional([[1, 0.5, [4]], [2, 0.5, [2, 9]], [3, 0.5, [pagePosition(0, 16_383)]]])],
      ['latenc', positional([[1, 0.25, [5, 30]], [2, 0.25, [1, 12]], [3, 0.25, [pagePosition(1, 1)]]])],
    ]);
    const found = evaluate({ phrase: ['disk', 'latenc'] }, withPositions);
    expect([...found.keys]).toEqual([1]);
    expect([...found.scores]).toEqual([0.75]);
    expect([...evaluate({ phrase: ['latenc', 'disk'] }, withPositions).keys]).toEqual([2]);
    expect(evaluate({ phrase: ['disk', 'zebra'] }, withPositions).keys.length).toBe(0);
    // Without positions, every page holding all of them stays a candidate.
    expect([...evaluate({ phrase: ['buffer', 'plugin'] }, lists).keys]).toEqual([2, 3]);
  });

  it('follows a chain of positions, a repeated lexeme included; an unknown list matches', () => {
    // One page (key 1) whose lexemes a, b, c... hold the positions given.
    const follows = (...chain: number[][]) => {
      const names = chain.map((_, i) => String.fromCharCode(97 + i));
      const onePage = (positions: number[]): Scores => {
        const bytes = encodePositions([positions]);
        return { ...list([[1, 0.5]]), positions: { rows: [bytes], row: new Uint32Array(1), offset: new Uint32Array(1) } };
      };
      return evaluate({ phrase: names }, new Map(chain.map((positions, i) => [names[i], onePage(positions)]))).keys.length === 1;
    };
    expect(follows([1, 5], [2, 9], [3])).toBe(true);
    expect(follows([1, 5], [6], [3])).toBe(false);
    expect(follows([1, 5], [2, 6], [7])).toBe(true);
    expect(follows([1, 5], [2, 6], [4])).toBe(false);
    expect(follows([1], [])).toBe(true);
    const twice = new Map([['a', { ...list([[1, 0.5]]), positions: { rows: [encodePositions([[3, 4]])], row: new Uint32Array(1), offset: new Uint32Array(1) } }]]);
    expect(evaluate({ phrase: ['a', 'a'] }, twice).keys.length).toBe(1);
    expect(evaluate({ phrase: ['a', 'a', 'a'] }, twice).keys.length).toBe(0);
  });

  it('finds a two-word phrase on every page where some position of the first is followed by one of the second', () => {
    // Random pages (a seeded generator), large positions included: the walk of two lists against a brute-force check.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 48_271) % 2_147_483_647), seed % n);
    const pages = Array.from({ length: 400 }, () =>
      [0, 1].map(() => [...new Set(Array.from({ length: 1 + random(6) }, () => (random(4) === 0 ? 100_000 : 0) + random(40)))].sort((a, b) => a - b)),
    );
    const onePerPage = (lists: number[][]): Scores => {
      const bytes = encodePositions(lists);
      const { positions } = decodePostings(encodePostings(lists.map((_, i) => i + 1), lists.map(() => 0.5)), bytes);
      return { ...list(lists.map((_, i) => [i + 1, 0.5])), positions: { rows: [bytes], row: new Uint32Array(lists.length), offset: positions!.offsets.subarray(0, lists.length) } };
    };
    const lists2 = new Map([
      ['a', onePerPage(pages.map((p) => p[0]))],
      ['b', onePerPage(pages.map((p) => p[1]))],
    ]);
    const expected = pages.flatMap(([a, b], i) => (a.some((p) => b.includes(p + 1)) ? [i + 1] : []));
    expect(expected.length).toBeGreaterThan(20);
    expect(expected.length).toBeLessThan(380);
    expect([...evaluate({ phrase: ['a', 'b'] }, lists2).keys]).toEqual(expected);
  });

  it('matches a prefix by the best of the lexemes it starts', () => {
    expect(scores({ prefix: 'buffer' })).toEqual({ 1: 0.9, 2: 0.25, 3: 0.1, 4: 0.75 });
  });
});

describe('best pages', () => {
  it('keeps the best by score, ties at the cut taken in key order, and counts every match', () => {
    // Scores with many ties (a few distinct values), as impacts of generated pages have.
    let seed = 11;
    const random = (n: number) => ((seed = (seed * 48_271) % 2_147_483_647), seed % n);
    const keys = Uint32Array.from({ length: 5_000 }, (_, i) => 3 * i + 1);
    const scores = Float64Array.from(keys, () => random(40) / 8);
    const reference = [...keys.keys()].sort((i, j) => scores[j] - scores[i] || keys[i] - keys[j]).slice(0, 200);
    const best = bestPages({ keys, scores }, 200);
    expect({ total: best.total, truncated: best.truncated }).toEqual({ total: 5_000, truncated: true });
    expect([...best.keys].sort((a, b) => a - b)).toEqual(reference.map((i) => keys[i]).sort((a, b) => a - b));
    expect(bestPages({ keys, scores }, 5_000)).toEqual({ keys: [...keys], total: 5_000, truncated: false });
    expect(bestPages({ keys: keys.subarray(0, 3), scores: Float64Array.of(0.5, 0.9, 0.5) }, 1).keys).toEqual([4]);
  });
});
