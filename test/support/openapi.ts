import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import spec from '@gitbook/api/spec/openapi.json';
import { addGitbookFormats, gitbookSchemas } from './gitbook-spec';

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  operationId: string;
  responses: Record<string, any>;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
addGitbookFormats(ajv);
// The spec with its unsatisfiable schemas corrected, shared with the document schema check.
const schemas = gitbookSchemas;
ajv.addSchema({ $id: 'gitbook', components: { schemas } });

function rebase(node: any): any {
  if (Array.isArray(node)) return node.map(rebase);
  if (node && typeof node === 'object') {
    const out: any = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `gitbook${v}` : rebase(v);
    return out;
  }
  return node;
}

const operations: Operation[] = [];
for (const [template, item] of Object.entries((spec as any).paths as Record<string, any>)) {
  for (const [method, op] of Object.entries(item)) {
    if (!op || typeof op !== 'object' || !(op as any).responses) continue;
    const regex = template
      .split('/')
      .map((seg) => (seg === '{pagePath}' ? '.+' : seg.startsWith('{') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    operations.push({ method: method.toUpperCase(), template, pattern: new RegExp(`^${regex}$`), operationId: (op as any).operationId, responses: (op as any).responses });
  }
}
// Literal segments win over parameters (`/orgs/{id}/spaces` before `/orgs/{id}/{x}`).
operations.sort((a, b) => b.template.split('{').length - a.template.split('{').length).reverse();

const compiled = new Map<string, ValidateFunction>();

function responseSchema(op: Operation, status: number): any | undefined {
  let response = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? (status >= 400 ? op.responses.default : undefined);
  if (!response) return undefined;
  if (response.$ref) response = (spec as any).components.responses[response.$ref.split('/').pop()];
  return response?.content?.['application/json']?.schema;
}

export function findOperation(method: string, path: string): Operation | undefined {
  return operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
}

/** Returns a list of problems (empty when the body matches the operation's response schema). */
export function validateResponse(method: string, path: string, status: number, body: unknown): { operationId?: string; errors: string[] } {
  const op = findOperation(method, path);
  if (!op) return { errors: [] };
  if (status >= 400) {
    const ok = !!body && typeof (body as any).error?.message === 'string' && (body as any).error?.code === status;
    return { operationId: op.operationId, errors: ok ? [] : [`error body is not {error:{code:${status},message}}: ${JSON.stringify(body)}`] };
  }
  const schema = responseSchema(op, status);
  if (!schema) {
    if (status === 204 || status === 205 || status === 202) return { operationId: op.operationId, errors: [] };
    return { operationId: op.operationId, errors: [`status ${status} is not declared by ${op.operationId}`] };
  }
  const key = `${op.operationId}:${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rebase(schema));
    compiled.set(key, validate);
  }
  if (validate(body)) return { operationId: op.operationId, errors: [] };
  return {
    operationId: op.operationId,
    errors: (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`),
  };
}

export function validateSchema(schemaName: string, value: unknown): string[] {
  const key = `schema:${schemaName}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `gitbook#/components/schemas/${schemaName}` });
    compiled.set(key, validate);
  }
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/**
 * Checks one /v1 response against the GitBook operation it answers (if any) and records what
 * breaks the schema; the official client's fetch and the raw `q.http` both go through here.
 */
export function recordViolations(violations: string[], method: string, pathname: string, status: number, contentType: string | null, text: string): void {
  if (!pathname.startsWith('/v1/') || !text || !(contentType ?? '').includes('json')) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    violations.push(`${method} ${pathname} -> ${status}: body is not JSON though it says so`);
    return;
  }
  const path = pathname.replace(/^\/v1/, '');
  const { operationId, errors } = validateResponse(method, path, status, body);
  for (const e of errors) violations.push(`${method} ${path} -> ${status} (${operationId}): ${e}`);
}

/** A fetch for the official client that fails the test when a response breaks GitBook's schema. */
export function validatingFetch(violations: string[]) {
  return {
    async fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
      const response = await fetch(input as any, init);
      const url = new URL(typeof input === 'string' ? input : (input as any).url ?? String(input));
      const text = await response.clone().text();
      recordViolations(violations, (init?.method ?? 'GET').toUpperCase(), url.pathname, response.status, response.headers.get('content-type'), text);
      return response;
    },
  };
}
