import { decodePostings, encodePostings, patchPostings } from './postings';
import { evaluate, PageMatch } from './page-candidates';

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
    const current = { keys: Uint32Array.from([2, 5, 9]), impacts: Float32Array.from([0.5, 0.5, 0.5]) };
    const next = patchPostings(current, new Set([5]), new Map([[1, 0.25], [9, 1], [12, 2]]));
    expect([...next.keys]).toEqual([1, 2, 9, 12]);
    expect([...next.impacts]).toEqual([0.25, 0.5, 1, 2]);
    expect([...patchPostings(undefined, new Set(), new Map([[4, 1]])).keys]).toEqual([4]);
    expect(patchPostings(current, new Set([2, 5, 9]), new Map()).keys.length).toBe(0);
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
  });

  it('takes a page at least the given number of parts hold', () => {
    expect(scores({ atLeast: 2, of: [{ lexeme: 'buffer' }, { lexeme: 'plugin' }, { lexeme: 'buffered' }] })).toEqual({ 2: 0.75, 3: 0.6 });
  });

  it('matches a prefix by the best of the lexemes it starts', () => {
    expect(scores({ prefix: 'buffer' })).toEqual({ 1: 0.9, 2: 0.25, 3: 0.1, 4: 0.75 });
  });
});
