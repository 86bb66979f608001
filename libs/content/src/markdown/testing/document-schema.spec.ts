import { assertValidDocument, validateDocument } from './document-schema';

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const paragraph = (value: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text(value)] });
const document = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });

describe('validateDocument', () => {
  it('accepts a document matching the GitBook JSONDocument schema', () => {
    expect(validateDocument(document(paragraph('Hello')))).toEqual({ valid: true, errors: [] });
  });

  it('rejects a block its container may not hold, naming the container', () => {
    const code = { object: 'block', type: 'code', data: {}, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [text('x')] }] };
    const check = validateDocument(document({ object: 'block', type: 'hint', data: { style: 'info' }, nodes: [code] }));

    expect(check.valid).toBe(false);
    expect(check.errors[0]).toBe('invalid node at nodes[0] (hint)');
  });

  it('rejects bad data, unknown types and incomplete leaves', () => {
    expect(validateDocument(document({ ...paragraph('a'), data: { extra: 1 } })).valid).toBe(false);
    expect(validateDocument(document({ object: 'block', type: 'nonsense', data: {}, nodes: [] })).valid).toBe(false);
    expect(validateDocument(document({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'a' }] }] })).valid).toBe(false);
    expect(validateDocument({ object: 'document', nodes: [] }).valid).toBe(false);
  });

  it('throws a readable error from assertValidDocument', () => {
    expect(() => assertValidDocument(document({ object: 'block', type: 'hint', data: { style: 'loud' }, nodes: [] }), 'page')).toThrow(
      /page does not match the GitBook JSONDocument schema:\ninvalid node at nodes\[0\] \(hint\)\n\/data\/style must be equal to one of the allowed values/,
    );
  });
});
