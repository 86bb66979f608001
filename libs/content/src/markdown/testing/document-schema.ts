import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { addGitbookFormats, gitbookSchemas } from '@quire/test-support/gitbook-spec';
import type { DocumentBlock, DocumentFragment, DocumentInline, DocumentText, JSONDocument } from '../document.types';

type Schema = Record<string, unknown>;

/** The spec as every test check reads it, with its unsatisfiable schemas corrected (test/support/gitbook-spec). */
const schemas: Record<string, Schema> = gitbookSchemas;

const ROOT = 'gitbook-openapi';

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

/**
 * Validates values against `@gitbook/api` spec/openapi.json. All `components.schemas` are
 * registered under one root so their `#/components/schemas/..` references resolve; formats
 * the spec invents (`emoji`, `icon`, ...) are accepted as any string.
 */
function schemaValidator(name: string): ValidateFunction {
  const cached = validators.get(name);
  if (cached) return cached;
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: false });
    addFormats(ajv);
    addGitbookFormats(ajv);
    ajv.addSchema({ $id: ROOT, components: { schemas } });
  }
  const validator = ajv.getSchema(`${ROOT}#/components/schemas/${name}`);
  if (!validator) throw new Error(`No schema named ${name} in @gitbook/api openapi.json`);
  validators.set(name, validator);
  return validator;
}

export interface SchemaCheck {
  valid: boolean;
  /** Empty when valid; otherwise where the innermost invalid node is and why. */
  errors: string[];
}

/** Checks a document against the `JSONDocument` schema. */
export function validateDocument(doc: unknown): SchemaCheck {
  const validate = schemaValidator('JSONDocument');
  if (validate(doc)) return { valid: true, errors: [] };
  const culprit = findInvalidNode(doc as JSONDocument);
  const detail = culprit ?? { path: '$', errors: (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message}`) };
  return { valid: false, errors: [`invalid node at ${detail.path}`, ...detail.errors] };
}

/** Throws with a readable message unless the document matches `JSONDocument`. */
export function assertValidDocument(doc: unknown, label = 'document'): void {
  const check = validateDocument(doc);
  if (!check.valid) throw new Error(`${label} does not match the GitBook JSONDocument schema:\n${check.errors.join('\n')}`);
}

/** Names the schema of every block and inline type, from the `type` enum of each DocumentBlockX / DocumentInlineX schema. */
function nodeSchemaNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) {
    if (!/^Document(Block|Inline)[A-Z]/.test(name)) continue;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const object = (properties.object?.enum as string[] | undefined)?.[0];
    for (const type of (properties.type?.enum as string[] | undefined) ?? []) names.set(`${object}:${type}`, name);
  }
  return names;
}

/** Walks the tree and reports the innermost node that fails its own type's schema. */
function findInvalidNode(doc: JSONDocument): { path: string; errors: string[] } | null {
  const names = nodeSchemaNames();
  const visit = (node: DocumentBlock | DocumentInline | DocumentText, path: string): { path: string; errors: string[] } | null => {
    if (node.object === 'text') return null;
    for (const [i, child] of (node.nodes ?? []).entries()) {
      const found = visit(child, `${path}.nodes[${i}]`);
      if (found) return found;
    }
    for (const [i, fragment] of ((node.fragments ?? []) as DocumentFragment[]).entries()) {
      for (const [j, child] of fragment.nodes.entries()) {
        const found = visit(child, `${path}.fragments[${i}].nodes[${j}]`);
        if (found) return found;
      }
    }
    const { object, type } = node;
    const schemaName = names.get(`${object}:${type}`);
    if (!schemaName) return { path, errors: [`no schema for ${object} type "${type}"`] };
    const validate = schemaValidator(schemaName);
    if (validate(node)) return null;
    return { path: `${path} (${type})`, errors: (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message}`) };
  };
  for (const [i, node] of (doc?.nodes ?? []).entries()) {
    const found = visit(node, `nodes[${i}]`);
    if (found) return found;
  }
  return null;
}

/** The raw schema, for specs that compare the converter's nesting table with the spec. */
export function gitbookSchema(name: string): Schema | undefined {
  return schemas[name];
}
