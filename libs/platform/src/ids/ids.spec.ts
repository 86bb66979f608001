import { newEventId } from './ids';

describe('newEventId', () => {
  it('makes UUIDv7s: version 7, RFC 9562 variant, the current millisecond first', () => {
    const before = Date.now();
    const id = newEventId();
    const after = Date.now();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
  });

  it('ids made later sort after earlier ones (a millisecond apart), and never repeat', async () => {
    const first = newEventId();
    await new Promise((r) => setTimeout(r, 2));
    const second = newEventId();
    expect(first < second).toBe(true);
    const many = Array.from({ length: 10_000 }, newEventId);
    expect(new Set(many).size).toBe(many.length);
  });
});
