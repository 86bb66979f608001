import { SecretBox, SecretKeyMissingError } from './secret-box';

const KEY = 'k'.repeat(40);

describe('SecretBox', () => {
  it('seals and opens a value; the sealed form does not contain it', () => {
    const box = new SecretBox(KEY, 'integration-secrets');
    const sealed = box.seal('{"token":"hunter2"}', 'integration:acme');
    expect(JSON.stringify(sealed)).not.toContain('hunter2');
    expect(box.open(sealed, 'integration:acme')).toBe('{"token":"hunter2"}');
  });

  it('uses a fresh IV each time', () => {
    const box = new SecretBox(KEY, 'p');
    expect(box.seal('same', 'c').data).not.toBe(box.seal('same', 'c').data);
  });

  it('refuses to open under another context, another purpose or another key, or when tampered with', () => {
    const box = new SecretBox(KEY, 'p');
    const sealed = box.seal('v', 'a');
    expect(() => box.open(sealed, 'b')).toThrow(/does not open/);
    expect(() => new SecretBox(KEY, 'other').open(sealed, 'a')).toThrow(/another QUIRE_SECRET_KEY/);
    expect(() => new SecretBox('z'.repeat(40), 'p').open(sealed, 'a')).toThrow(/another QUIRE_SECRET_KEY/);
    const flipped = Buffer.from(sealed.data, 'base64');
    flipped[0] ^= 1;
    expect(() => box.open({ ...sealed, data: flipped.toString('base64') }, 'a')).toThrow(/does not open/);
  });

  it('needs a key', () => {
    expect(() => new SecretBox('', 'p')).toThrow(SecretKeyMissingError);
    expect(SecretBox.forPurpose(undefined, 'p')).toBeUndefined();
  });
});
