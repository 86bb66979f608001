import { moreCandidates } from './search.queries';

describe('moreCandidates', () => {
  it('grows the candidates by the yield the last ones gave, with half again as margin', () => {
    // 202 candidates gave 83 of the 101 results asked for: 202 * 101 / 83 * 1.5.
    expect(moreCandidates(202, 0, 83, 100)).toBe(369);
  });

  it('counts the results before a cursor as found by the same candidates', () => {
    // 800 candidates reached rank 100 and 20 more of the 51 asked for: 800 * 151 / 120 * 1.5.
    expect(moreCandidates(800, 100, 20, 50)).toBe(1510);
  });

  it('grows four times when nothing was found, and never more', () => {
    expect(moreCandidates(200, 0, 0, 100)).toBe(800);
    expect(moreCandidates(200, 0, 1, 100)).toBe(800);
  });

  it('grows by half at least, one result short of a page', () => {
    expect(moreCandidates(200, 0, 100, 100)).toBe(303);
    expect(moreCandidates(200, 1000, 1, 1)).toBe(301);
  });
});
