import type { DocumentBlock } from './document.types';
import { block, fragment, paragraph, textNode, voidBlock } from './document-nodes';
import { ALLOWED_CHILDREN, fitDocumentNodes } from './fit-schema-nesting';
import { assertValidDocument, gitbookSchema } from './testing/document-schema';

/** Block types a schema (or a union of schemas, through $ref/oneOf/allOf) accepts. */
function acceptedTypes(schema: Record<string, unknown> | undefined, seen = new Set<string>()): Set<string> {
  const types = new Set<string>();
  if (!schema) return types;
  const ref = schema.$ref as string | undefined;
  if (ref) {
    const name = ref.split('/').pop()!;
    if (seen.has(name)) return types;
    seen.add(name);
    return acceptedTypes(gitbookSchema(name), seen);
  }
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    for (const part of (schema[key] as Array<Record<string, unknown>> | undefined) ?? []) acceptedTypes(part, seen).forEach((t) => types.add(t));
  }
  const typeEnum = ((schema.properties as Record<string, { enum?: string[] }> | undefined)?.type?.enum ?? []) as string[];
  typeEnum.forEach((t) => types.add(t));
  return types;
}

function childTypes(schemaName: string, fragmentName?: string): string[] {
  const schema = gitbookSchema(schemaName)!;
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  if (!fragmentName) return [...acceptedTypes(properties.nodes.items as Record<string, unknown>)].sort();
  const variants = ((properties.fragments.items as Record<string, unknown>).oneOf as Array<{ allOf: Array<Record<string, unknown>> }>);
  const variant = variants.find((v) => JSON.stringify(v).includes(`"${fragmentName}"`))!;
  const nodes = (variant.allOf[1].properties as Record<string, Record<string, unknown>>).nodes;
  return [...acceptedTypes(nodes.items as Record<string, unknown>)].sort();
}

describe('ALLOWED_CHILDREN', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['list-item', 'DocumentBlockListItem', undefined],
    ['blockquote', 'DocumentBlockQuote', undefined],
    ['hint', 'DocumentBlockHint', undefined],
    ['tabs', 'DocumentBlockTabs', undefined],
    ['tabs-item', 'DocumentBlockTabsItem', undefined],
    ['stepper', 'DocumentBlockStepper', undefined],
    ['stepper-step', 'DocumentBlockStepperStep', undefined],
    ['columns', 'DocumentBlockColumns', undefined],
    ['column', 'DocumentBlockColumn', undefined],
    ['images', 'DocumentBlockImages', undefined],
    ['code', 'DocumentBlockCode', undefined],
    ['list-unordered', 'DocumentBlockListUnordered', undefined],
    ['expandable-body', 'DocumentBlockExpandable', 'expandable-body'],
  ];

  it.each(cases)('matches the openapi schema for %s', (container, schemaName, fragmentName) => {
    expect([...ALLOWED_CHILDREN[container]].sort()).toEqual(childTypes(schemaName, fragmentName));
  });

  it('matches the openapi schema for the document itself', () => {
    expect([...ALLOWED_CHILDREN.document].sort()).toEqual([...acceptedTypes(gitbookSchema('DocumentBlocksTopLevels'))].sort());
  });
});

const p = (value: string) => paragraph([textNode(value)]);
const code = () => block('code', {}, [block('code-line', {}, [textNode('x')])]);
const types = (nodes: DocumentBlock[]) => nodes.map((n) => n.type);

function fitted(nodes: DocumentBlock[]): DocumentBlock[] {
  const result = fitDocumentNodes(nodes);
  assertValidDocument({ object: 'document', data: {}, nodes: result });
  return result;
}

describe('fitDocumentNodes', () => {
  it('returns allowed trees unchanged', () => {
    const nodes = [block('hint', { style: 'info' }, [p('a')]), block('list-unordered', {}, [block('list-item', {}, [p('b'), code()])])];
    expect(fitted(nodes)).toEqual(nodes);
  });

  it('splits a container around a child it cannot hold and moves the child up', () => {
    const result = fitted([block('hint', { style: 'warning' }, [p('before'), code(), p('after')])]);

    expect(types(result)).toEqual(['hint', 'code', 'hint']);
    expect(result[0].data).toEqual({ style: 'warning' });
    expect(result[2].nodes).toEqual([p('after')]);
  });

  it('hoists through several levels, continuing the numbering of a split ordered list', () => {
    const tabs = block('tabs', {}, [block('tabs-item', { title: 'T' }, [p('x')])]);
    const list = block('list-ordered', { start: 4 }, [block('list-item', {}, [p('a'), tabs, p('b')]), block('list-item', {}, [p('c')])]);
    const result = fitted([list]);

    expect(types(result)).toEqual(['list-ordered', 'tabs', 'list-ordered']);
    expect(result[0].data).toEqual({ start: 4 });
    expect(result[2].data).toEqual({ start: 5 });
    expect((result[2].nodes as DocumentBlock[]).length).toBe(2);
  });

  it('turns images and block math into inline content where only paragraphs fit', () => {
    const image = voidBlock('image', { ref: { kind: 'url', url: 'a.png' }, alt: 'A' }, [fragment('caption', [p('Cap')])]);
    const [quote] = fitted([block('blockquote', {}, [block('images', {}, [image]), voidBlock('math', { formula: 'x' })])]);

    expect((quote.nodes as DocumentBlock[]).map((n) => n.nodes?.[1])).toEqual([
      { object: 'inline', type: 'inline-image', key: '', data: { ref: { kind: 'url', url: 'a.png' }, alt: 'A', caption: 'Cap' }, isVoid: true },
      { object: 'inline', type: 'inline-math', key: '', data: { formula: 'x' }, isVoid: true },
    ]);
  });

  it('puts a table that a tab cannot hold into an info hint', () => {
    const table = voidBlock('table', { view: { type: 'grid', columns: [], hideHeader: true }, records: {}, definition: {} }, []);
    const [tabs] = fitted([block('tabs', {}, [block('tabs-item', { title: 'T' }, [table])])]);

    expect(((tabs.nodes![0] as DocumentBlock).nodes![0] as DocumentBlock)).toMatchObject({ type: 'hint', data: { style: 'info' }, nodes: [table] });
  });

  it('wraps stray items in their parent block', () => {
    expect(types(fitted([block('tabs-item', { title: 'T' }, [p('x')]), block('list-item', {}, [p('y')])]))).toEqual(['tabs', 'list-unordered']);
  });

  it('keeps an expandable body non-empty', () => {
    const expandable = voidBlock('expandable', {}, [fragment('expandable-title', [p('T')], true), fragment('expandable-body', [], true)]);
    const [result] = fitted([expandable]);

    expect(result.fragments![1].nodes).toHaveLength(1);
  });
});
