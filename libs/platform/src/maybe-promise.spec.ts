import { thenMaybe } from './maybe-promise';

describe('thenMaybe', () => {
  it('answers a value at once, without a promise', () => {
    expect(thenMaybe(2, (n) => n * 3)).toBe(6);
  });

  it('answers a promise once a promised value is here', async () => {
    const answer = thenMaybe(Promise.resolve(2), (n) => n * 3);
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toBe(6);
  });

  it('throws at once for a value, rejects for a promise', async () => {
    const refuse = (): number => {
      throw new Error('refused');
    };
    expect(() => thenMaybe(1, refuse)).toThrow('refused');
    await expect(thenMaybe(Promise.resolve(1), refuse)).rejects.toThrow('refused');
  });
});
