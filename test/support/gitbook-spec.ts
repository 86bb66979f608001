import type Ajv from 'ajv/dist/2020';
import spec from '@gitbook/api/spec/openapi.json';

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * `components.schemas` of `@gitbook/api`'s spec/openapi.json as every check in Quire's tests
 * reads it: the API response validator (openapi.ts) and the document schema check
 * (libs/content/src/markdown/testing/document-schema.ts). A few of GitBook's schemas cannot be
 * satisfied by any value; each is corrected here, on a copy, as narrowly as possible, so that
 * the checks still reject what GitBook would. Nothing else changes the spec.
 */
export const gitbookSchemas: Record<string, Schema> = withSpecDefectsFixed((spec as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas);

/** Formats the spec names without defining them (`emoji`, `icon`, ...), and numeric ones it uses loosely: accepted as is. */
const LOOSE_FORMATS = ['emoji', 'icon', 'markdown', 'hostname-or-url', 'int32', 'int64', 'float', 'double', 'color'];

/** Registers the spec's formats on a validator: the loose ones, and any other it uses that ajv-formats does not know. */
export function addGitbookFormats(ajv: Ajv): void {
  for (const format of LOOSE_FORMATS) ajv.addFormat(format, true);
  for (const format of collectFormats(gitbookSchemas)) {
    if (!ajv.formats[format]) ajv.addFormat(format, true);
  }
}

function collectFormats(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => collectFormats(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'format' && typeof child === 'string') found.add(child);
      else collectFormats(child, found);
    }
  }
  return found;
}

function withSpecDefectsFixed(original: Record<string, Schema>): Record<string, Schema> {
  const schemas = structuredClone(original);
  /*
   * `Document`'s "Empty" variant declares `additionalProperties: false`, but it is only ever
   * used inside `allOf` with a page's other properties, so no page without a body (GitBook's
   * own revision trees carry `documentId` only) could match it. It is read as meant: "neither
   * markdown nor document".
   */
  const documentVariants = (schemas.Document?.oneOf ?? []) as Schema[];
  const empty = documentVariants.findIndex((variant) => variant.title === 'Empty');
  if (empty >= 0) documentVariants[empty] = { title: 'Empty', not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } };
  /*
   * A page_edited change's `attributes` is a `oneOf` of the document, group and link attribute
   * sets, none of which forbids the others' properties, and the group's properties are a subset
   * of the document's: every attribute set matches at least two, so nothing passes "exactly
   * one". It is read as meant: any one of them.
   */
  const pageEdited = schemas.RevisionSemanticChangePageEdited?.properties?.attributes;
  if (pageEdited?.oneOf) schemas.RevisionSemanticChangePageEdited.properties.attributes = { anyOf: pageEdited.oneOf };
  /*
   * `DocumentInlineButton.data` is `allOf [{label, kind, icon}, oneOf [{ref}, {action}]]` with
   * `additionalProperties: false` on each `oneOf` branch, which then rejects `label` and `kind`
   * of every button; the branches keep their required property, without that flag.
   */
  for (const branch of schemas.DocumentInlineButton?.properties?.data?.allOf?.[1]?.oneOf ?? []) delete branch.additionalProperties;
  /*
   * A `DocumentTableRecord` value is a `oneOf` in which a URL or file ref matches both
   * `ContentRef` and `DocumentTableImageRecord`; it is read as `anyOf`.
   */
  const recordValue = schemas.DocumentTableRecord?.properties?.values?.additionalProperties;
  if (recordValue?.oneOf) {
    recordValue.anyOf = recordValue.oneOf;
    delete recordValue.oneOf;
  }
  return schemas;
}
