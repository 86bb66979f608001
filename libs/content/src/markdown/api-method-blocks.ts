import type { DocumentBlock, DocumentFragment, DocumentMark } from './document.types';
import { block, fragment, paragraph, textNode, textParagraph, voidBlock } from './document-nodes';
import { orderIndex } from './table-to-document';

/**
 * GitBook's retired "API method" block, which Git Sync wrote as
 * `{% swagger method path baseUrl summary %}` holding `{% swagger-description %}`,
 * `{% swagger-parameter in name type required %}` and `{% swagger-response status description %}`.
 *
 * GitBook's document format has no block for it: the spec's `swagger` block
 * (`DocumentBlockOpenAPI`) points at an operation of an OpenAPI file or URL (`ref`, `path`,
 * `method`), which a hand-written method does not have. GitBook removed the block in 2024 and
 * turned every existing one into standard blocks (changelog/2024-product-updates.md of
 * GitbookIO/public-docs, "Deprecating the API method block", with before/after screenshots):
 * the summary as a heading, the method and URL, the description, one table of parameters per
 * location (Name, Type, Description, Required as a checkbox) and the responses as tabs. This
 * builds the same blocks, so a page reads, renders, indexes and exports as it does on GitBook
 * today; `format=markdown` writes those standard blocks.
 */

export interface ApiMethodParameter {
  attrs: Record<string, string>;
  description: DocumentBlock[];
}

export interface ApiMethodResponse {
  attrs: Record<string, string>;
  body: DocumentBlock[];
}

export interface ApiMethod {
  attrs: Record<string, string>;
  description: DocumentBlock[];
  parameters: ApiMethodParameter[];
  responses: ApiMethodResponse[];
}

/** Parameter locations in the order the API method block showed them, with its section titles. */
const LOCATIONS: ReadonlyArray<[string, string]> = [
  ['path', 'Path Parameters'],
  ['query', 'Query Parameters'],
  ['header', 'Headers'],
  ['cookie', 'Cookies'],
  ['body', 'Request Body'],
  ['formData', 'Form Data'],
];

const CODE: DocumentMark[] = [{ object: 'mark', type: 'code' }];

/** The standard blocks of one API method, or null when it names neither a method nor a path. */
export function apiMethodBlocks(method: ApiMethod): DocumentBlock[] | null {
  const verb = (method.attrs.method ?? '').trim().toUpperCase();
  const url = joinUrl(method.attrs.baseUrl ?? '', method.attrs.path ?? '');
  if (verb === '' && url === '') return null;
  const blocks: DocumentBlock[] = [];
  const summary = (method.attrs.summary ?? '').trim();
  if (summary) blocks.push({ ...textParagraph(summary), type: 'heading-2' });
  const endpoint = [verb && textNode(verb, CODE), verb && url && textNode(' '), url && textNode(url, CODE)].filter((node) => node !== '');
  blocks.push(paragraph(endpoint));
  blocks.push(...method.description);

  const known = new Set(LOCATIONS.map(([location]) => location));
  const locations: Array<[string, string]> = [...LOCATIONS];
  for (const parameter of method.parameters) {
    const location = parameter.attrs.in ?? '';
    if (!known.has(location)) {
      known.add(location);
      locations.push([location, location ? `${location[0].toUpperCase()}${location.slice(1)} Parameters` : 'Parameters']);
    }
  }
  for (const [location, title] of locations) {
    const parameters = method.parameters.filter((parameter) => (parameter.attrs.in ?? '') === location);
    if (parameters.length === 0) continue;
    blocks.push({ ...textParagraph(title), type: 'heading-3' }, parametersTable(parameters));
  }

  if (method.responses.length > 0) {
    blocks.push(
      block(
        'tabs',
        {},
        method.responses.map((response) => {
          const title = [response.attrs.status, response.attrs.description].map((part) => (part ?? '').trim()).filter(Boolean).join(' ');
          return block('tabs-item', { title: title || 'Response' }, response.body);
        }),
      ),
    );
  }
  return blocks;
}

function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.trim();
  const rest = path.trim();
  return base.endsWith('/') && rest.startsWith('/') ? base + rest.slice(1) : base + rest;
}

const COLUMNS = [
  { id: 'c1', title: 'Name', type: 'text' },
  { id: 'c2', title: 'Type', type: 'text' },
  { id: 'c3', title: 'Description', type: 'text' },
  { id: 'c4', title: 'Required', type: 'checkbox' },
] as const;

/**
 * A grid table as GitBook's HTML table reader gives it (positional ids, text cells as
 * fragments named record + column), so the table exported as HTML reads back equal.
 */
function parametersTable(parameters: readonly ApiMethodParameter[]): DocumentBlock {
  const definition: Record<string, Record<string, unknown>> = {};
  for (const column of COLUMNS) {
    definition[column.id] = column.type === 'text' ? { ...column, textAlignment: 'left' } : { ...column };
  }
  const records: Record<string, unknown> = {};
  const fragments: DocumentFragment[] = [];
  parameters.forEach((parameter, r) => {
    const recordId = `r${r + 1}`;
    const values: Record<string, unknown> = {};
    const cells: Array<[string, DocumentBlock[]]> = [
      ['c1', textBlocks(parameter.attrs.name)],
      ['c2', textBlocks(parameter.attrs.type)],
      ['c3', parameter.description],
    ];
    for (const [columnId, blocks] of cells) {
      if (blocks.length === 0) continue;
      values[columnId] = `${recordId}${columnId}`;
      fragments.push(fragment(`${recordId}${columnId}`, blocks));
    }
    values.c4 = parameter.attrs.required === 'true';
    records[recordId] = { orderIndex: orderIndex(r), values };
  });
  return voidBlock(
    'table',
    { view: { type: 'grid', columns: COLUMNS.map((column) => column.id), hideHeader: false }, records, definition },
    fragments,
  );
}

function textBlocks(text: string | undefined): DocumentBlock[] {
  const value = (text ?? '').trim();
  return value === '' ? [] : [textParagraph(value)];
}
