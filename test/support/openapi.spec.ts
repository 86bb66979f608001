import { recordViolations, validateSchema } from './openapi';

describe('recordViolations', () => {
  it('checks a /v1 response against the GitBook operation it answers', () => {
    const violations: string[] = [];
    recordViolations(violations, 'GET', '/v1/spaces/abc', 200, 'application/json; charset=utf-8', '{"object":"space"}');
    expect(violations.length).toBeGreaterThan(0);
    expect(violations[0]).toMatch(/^GET \/spaces\/abc -> 200 \(getSpaceById\)/);
  });

  it('checks error bodies, and leaves non-/v1 and non-JSON responses alone', () => {
    const violations: string[] = [];
    recordViolations(violations, 'GET', '/v1/spaces/abc', 404, 'application/json', '{"message":"nope"}');
    expect(violations).toHaveLength(1);
    recordViolations(violations, 'GET', '/sites/x/y', 200, 'application/json', '{}');
    recordViolations(violations, 'GET', '/v1/spaces/abc', 200, 'text/html', '<p>');
    expect(violations).toHaveLength(1);
  });
});

describe('the corrected spec (gitbook-spec.ts)', () => {
  const document = (nodes: unknown[]) => ({ object: 'document', data: {}, nodes });
  const button = {
    object: 'block',
    type: 'paragraph',
    data: {},
    nodes: [{ object: 'inline', type: 'button', data: { label: 'Guide', kind: 'primary', ref: { kind: 'page', page: 'p2' } }, isVoid: true }],
  };
  const cards = {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      view: { type: 'cards', columns: ['c1'], cardSize: 'medium', targetDefinition: 'c2', coverDefinition: 'c3' },
      records: { r1: { orderIndex: 'a0', values: { c1: 'Setup', c2: { kind: 'page', page: 'p2' }, c3: { kind: 'url', url: 'https://x.y/a.png' } } } },
      definition: { c1: { id: 'c1', title: '', type: 'text', textAlignment: 'left' }, c2: { id: 'c2', title: '', type: 'content-ref' }, c3: { id: 'c3', title: '', type: 'image' } },
    },
    fragments: [],
  };

  it('accepts a document holding a button and a cards table (which the raw spec cannot)', () => {
    expect(validateSchema('JSONDocument', document([button, cards]))).toEqual([]);
  });

  it('still rejects a button without its label', () => {
    const broken = { ...button, nodes: [{ ...button.nodes[0], data: { kind: 'primary', ref: { kind: 'page', page: 'p2' } } }] };
    expect(validateSchema('JSONDocument', document([broken]))).not.toEqual([]);
  });
});
