import { decodeCursor, encodeCursor, idCursor, InvalidCursorError, timeIdCursor } from './pagination';

describe('decodeCursor', () => {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

  it('returns what encodeCursor wrote when it matches the list schema', () => {
    const key: [string, string] = [new Date(0).toISOString(), 'abc'];
    expect(decodeCursor(encodeCursor(key), timeIdCursor)).toEqual(key);
    expect(decodeCursor(encodeCursor(['u1']), idCursor)).toEqual(['u1']);
    expect(decodeCursor(undefined, idCursor)).toBeUndefined();
  });

  it.each([
    ['not-a-date', 'x'],
    ['2020-13-45T00:00:00.000Z', 'x'],
    ['2020-02-30T00:00:00.000Z', 'x'],
    ['0000-01-01T00:00:00.000Z', 'x'],
    ['2020-01-01', 'x'],
    [1, 2],
    [{ a: 1 }, 'x'],
    ['2020-01-01T00:00:00.000Z', 1],
    ['2020-01-01T00:00:00.000Z', ''],
    ['2020-01-01T00:00:00.000Z'],
  ])('rejects %j as a [timestamp, id] cursor', (...key) => {
    expect(() => decodeCursor(enc(key), timeIdCursor)).toThrow(InvalidCursorError);
  });

  it.each([[[1]], [[{ a: 1 }]], [[null]], [['']], [['a', 'b']], [{ a: 1 }], ['x']])('rejects %j as an [id] cursor', (key) => {
    expect(() => decodeCursor(enc(key), idCursor)).toThrow(InvalidCursorError);
  });

  it('rejects text that is not base64url JSON', () => {
    expect(() => decodeCursor('garbage!', idCursor)).toThrow(InvalidCursorError);
  });
});
