import { parseDocument } from 'yaml';
import { z } from 'zod';
import { GitSyncLayoutError } from './gitsync.errors';
import { resolveRepoPath, toDirPrefix } from './repo-path';
import { readText, type SourceTree } from './source-tree';

/** Where the docs live, as `.gitbook.yaml` (or a legacy `book.json`) says. */
export interface GitSyncConfig {
  /** Repository path of the file the settings came from, if any. */
  configPath?: string;
  docsRoot: string;
  /** Repository paths; neither is checked for existence here. */
  readmePath: string;
  summaryPath: string;
  /** True when the summary path was set explicitly, so its absence deserves a warning. */
  summaryConfigured: boolean;
  /** Old path (relative to the docs root) -> target file (repository path). */
  redirects: Record<string, string>;
  warnings: string[];
}

const optionalPath = z.string().nullish();

const gitbookYamlSchema = z.object({
  root: optionalPath,
  structure: z.object({ readme: optionalPath, summary: optionalPath }).nullish(),
  // Values are checked one by one: one odd redirect should not fail the whole sync.
  redirects: z.record(z.string(), z.unknown()).nullish(),
});

const bookJsonSchema = z.object({
  root: optionalPath.catch(undefined),
  structure: z.object({ readme: optionalPath, summary: optionalPath }).nullish().catch(undefined),
});

type Settings = z.infer<typeof gitbookYamlSchema>;

/**
 * `.gitbook.yaml` lives at the repository root, or at the project directory in a
 * monorepo; `root` is resolved against that directory and every other path against
 * `root`. Without `.gitbook.yaml`, GitBook's legacy `book.json` may still name the root
 * (`{"root": "./tw"}`), as in books migrated from the GitBook CLI.
 */
export async function readGitSyncConfig(
  tree: SourceTree,
  files: ReadonlySet<string>,
  projectDirectory?: string,
): Promise<GitSyncConfig> {
  const base = toDirPrefix(projectDirectory);
  if (base === undefined) {
    throw new GitSyncLayoutError('invalid_config', `Project directory ${projectDirectory} is outside the repository`);
  }
  const warnings: string[] = [];
  const yamlPath = `${base}.gitbook.yaml`;
  const bookJsonPath = `${base}book.json`;
  let configPath: string | undefined;
  let settings: Settings = {};

  if (files.has(yamlPath)) {
    configPath = yamlPath;
    settings = parseGitbookYaml((await readText(tree, yamlPath)) ?? '', yamlPath);
  } else if (files.has(bookJsonPath)) {
    const legacy = parseBookJson((await readText(tree, bookJsonPath)) ?? '');
    if (legacy === undefined) warnings.push(`${bookJsonPath} is not valid JSON; ignored`);
    else if (legacy.root || legacy.structure) {
      configPath = bookJsonPath;
      settings = { root: legacy.root, structure: legacy.structure };
    }
  }

  const rootPath = resolveRepoPath(base, stripLeadingSlash(settings.root ?? ''));
  const docsRoot = rootPath === undefined ? undefined : toDirPrefix(rootPath);
  if (docsRoot === undefined) {
    throw new GitSyncLayoutError('invalid_config', `${configPath}: root ${settings.root} is outside the repository`, configPath);
  }
  const inRoot = (path: string, key: string): string => {
    const resolved = resolveRepoPath(docsRoot, stripLeadingSlash(path));
    if (!resolved) {
      const message = `${configPath}: ${key} ${path} is not a file inside the repository`;
      throw new GitSyncLayoutError('invalid_config', message, configPath);
    }
    return resolved;
  };

  const redirects: Record<string, string> = {};
  for (const [from, to] of Object.entries(settings.redirects ?? {})) {
    const source = from.trim().replace(/^\/+|\/+$/g, '');
    const target =
      typeof to === 'string' ? resolveRepoPath(docsRoot, stripLeadingSlash(to.trim().replace(/#.*$/, ''))) : undefined;
    if (!source || !target) {
      warnings.push(`${configPath}: redirect ${from} has no usable target; ignored`);
      continue;
    }
    redirects[source] = target;
  }

  return {
    configPath,
    docsRoot,
    readmePath: inRoot(settings.structure?.readme || 'README.md', 'structure.readme'),
    summaryPath: inRoot(settings.structure?.summary || 'SUMMARY.md', 'structure.summary'),
    summaryConfigured: Boolean(settings.structure?.summary),
    redirects,
    warnings,
  };
}

function parseGitbookYaml(text: string, path: string): Settings {
  // Real repositories repeat redirect keys; the last one wins, as in most YAML readers.
  const document = parseDocument(text, { uniqueKeys: false });
  if (document.errors.length > 0) {
    throw new GitSyncLayoutError('invalid_config', `${path}: ${document.errors[0].message}`, path);
  }
  const data: unknown = document.toJS() ?? {};
  const parsed = gitbookYamlSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GitSyncLayoutError('invalid_config', `${path}: ${issue.path.join('.') || 'document'}: ${issue.message}`, path);
  }
  return parsed.data;
}

function parseBookJson(text: string): z.infer<typeof bookJsonSchema> | undefined {
  try {
    const parsed = bookJsonSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return undefined;
  }
}

function stripLeadingSlash(path: string): string {
  return path.replace(/^\/+/, '');
}
