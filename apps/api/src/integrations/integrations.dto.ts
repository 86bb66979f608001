import { z } from 'zod';
import {
  INTEGRATION_CATEGORIES,
  INTEGRATION_NAME_MAX,
  INTEGRATION_NAME_PATTERN,
  INTEGRATION_SCOPES,
  INTEGRATION_TARGETS,
  INTEGRATION_VISIBILITIES,
} from '@quire/domain';
import { paginationQuery } from '@quire/platform/http/pagination';
import { queryBool } from '../http/validation';

/** GitBook's integrationName path parameter. */
export const integrationName = z
  .string()
  .max(INTEGRATION_NAME_MAX)
  .regex(INTEGRATION_NAME_PATTERN, `must match ${INTEGRATION_NAME_PATTERN.source}`);

/** Images arrive inline as base64 (`format: byte`); sizes are of the decoded bytes. */
export const ICON_MAX_BYTES = 512 * 1024;
export const PREVIEW_MAX_BYTES = 2 * 1024 * 1024;
const base64 = z.string().max(4 * 1024 * 1024).base64('must be base64');

const url = z.url({ protocol: /^https?$/ }).max(2048);

const block = z.object({
  id: z.string().min(1).max(100),
  title: z.string().min(2).max(40),
  description: z.string().max(150).optional(),
  icon: z.string().max(2048).optional(),
  urlUnfurl: z.array(z.string().max(2048)).max(50).optional(),
  markdown: z.object({ codeblock: z.string().max(100), body: z.string().max(100) }).optional(),
});

const configurationComponent = z.object({ componentId: z.string().min(1).max(100) });
const propertyCommon = { title: z.string().min(2).max(50).optional(), description: z.string().max(100).optional() };
const configurationProperty = z.discriminatedUnion('type', [
  z.object({ ...propertyCommon, type: z.literal('string'), default: z.string().optional(), completion_url: z.string().max(2048).optional(), enum: z.array(z.string()).optional() }),
  z.object({ ...propertyCommon, type: z.literal('number'), default: z.number().optional() }),
  z.object({ ...propertyCommon, type: z.literal('boolean'), default: z.boolean().optional() }),
  z.object({ ...propertyCommon, type: z.literal('button'), callback_url: z.string().max(2048), button_text: z.string().max(100) }),
]);
const configurationSchema = z.object({
  properties: z.record(z.string().max(100), configurationProperty),
  required: z
    .array(z.string())
    .refine((names) => new Set(names).size === names.length, 'must not repeat a property')
    .optional(),
});
/** GitBook's IntegrationConfiguration: a property schema, or a ContentKit component. */
const configuration = z.union([configurationSchema, configurationComponent]);

const CSP_DIRECTIVES = [
  'base-uri', 'block-all-mixed-content', 'child-src', 'connect-src', 'default-src', 'font-src', 'form-action', 'frame-ancestors',
  'frame-src', 'img-src', 'manifest-src', 'media-src', 'navigate-to', 'object-src', 'plugin-types', 'prefetch-src', 'referrer',
  'report-to', 'report-uri', 'require-sri-for', 'require-trusted-types-for', 'sandbox', 'script-src', 'script-src-attr',
  'script-src-elem', 'style-src', 'style-src-attr', 'style-src-elem', 'trusted-types', 'upgrade-insecure-requests', 'worker-src',
] as const;
const contentSecurityPolicy = z.union([
  z.string().max(4096),
  // GitBook's schema names these directives and allows others (no additionalProperties: false).
  z
    .object(Object.fromEntries(CSP_DIRECTIVES.map((d) => [d, z.string().max(4096).optional()])) as Record<(typeof CSP_DIRECTIVES)[number], z.ZodOptional<z.ZodString>>)
    .catchall(z.unknown())
    .refine((csp) => JSON.stringify(csp).length <= 64 * 1024, 'is too large'),
]);

/** GitBook's PublishIntegration body. */
export const publishIntegrationBody = z.object({
  runtime: z.enum(['v1', 'v2']).default('v1'),
  icon: base64.min(1, 'must not be empty').optional(),
  title: z.string().min(2).max(30),
  description: z.string().max(100),
  summary: z.string().max(2048).optional(),
  previewImages: z.array(base64).max(3).default([]),
  // Not listed until its publisher says so.
  visibility: z.enum(INTEGRATION_VISIBILITIES).default('private'),
  target: z.enum(INTEGRATION_TARGETS).default('all'),
  scopes: z.array(z.enum(INTEGRATION_SCOPES)).transform((s) => [...new Set(s)]),
  categories: z
    .array(z.enum(INTEGRATION_CATEGORIES))
    .default([])
    .transform((c) => [...new Set(c)]),
  blocks: z.array(block).max(100).optional(),
  contentSources: z
    .array(z.object({ id: z.string().min(1).max(100), title: z.string().min(2).max(40), description: z.string().max(150).optional(), icon: z.string().max(2048).optional(), configuration: configurationComponent }))
    .max(100)
    .optional(),
  externalLinks: z.array(z.object({ url, label: z.string().max(100) })).max(5).default([]),
  configurations: z.object({ account: configuration.optional(), space: configuration.optional(), site: configuration.optional() }).optional(),
  script: z.string().max(5 * 1024 * 1024),
  organization: z.string().min(1).max(100),
  secrets: z
    .record(z.string().min(1).max(100), z.string().max(10_000))
    .refine((s) => Object.keys(s).length <= 20, 'at most 20 secrets')
    .optional(),
  contentSecurityPolicy: contentSecurityPolicy.optional(),
});
export type PublishIntegrationInput = z.infer<typeof publishIntegrationBody>;

/** GitBook's listIntegrations query. */
export const listIntegrationsQuery = z.object({
  ...paginationQuery,
  search: z.string().max(200).optional(),
  category: z.enum(INTEGRATION_CATEGORIES).optional(),
  blockDomain: z.string().max(100).regex(/^[a-zA-Z0-9-_.]+$/, 'must be a domain name').optional(),
  blocks: queryBool.optional(),
  contentSources: queryBool.optional(),
  owner: z.string().max(100).optional(),
  scope: z.enum(INTEGRATION_SCOPES).optional(),
  target: z.enum(INTEGRATION_TARGETS).optional(),
});
