import { ifNoneMatchHolds, revisionTag } from './conditional';

describe('conditional reads', () => {
  it('tags a representation weakly by revision and by every option that shapes it', () => {
    const tag = revisionTag('r1', 'page', 'p1', { format: 'markdown' });
    expect(tag).toMatch(/^W\/"r1\.[\w-]{16}"$/);
    expect(revisionTag('r1', 'page', 'p1', { format: 'markdown' })).toBe(tag);
    expect(revisionTag('r1', 'page', 'p1', { format: 'document' })).not.toBe(tag);
    expect(revisionTag('r2', 'page', 'p1', { format: 'markdown' })).not.toBe(tag);
  });

  it('If-None-Match compares weakly (RFC 9110 §13.1.2), in a list, and `*` matches', () => {
    expect(ifNoneMatchHolds('W/"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHolds('"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHolds('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHolds('"x", W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHolds('*', '"abc"')).toBe(true);
    expect(ifNoneMatchHolds('"abcd"', '"abc"')).toBe(false);
    expect(ifNoneMatchHolds(undefined, '"abc"')).toBe(false);
  });
});
