import { readFileSync } from 'fs';
import { join } from 'path';
const pages = JSON.parse(readFileSync('/tmp/pgsql-pages.json', 'utf8')) as string[];
const load = (dir: string) => ({
  tokens: require(join(dir, 'libs/content/src/markdown/parse-markdown')).parseMarkdownTokens as (s: string) => unknown,
  full: require(join(dir, 'libs/content/src/markdown')).markdownToDocument as (s: string) => unknown,
});
const base = load('/work/wt-13-base');
const cur = load('/work/wt-13');
const cpu = (f: (s: string) => unknown) => { const t = process.cpuUsage(); for (const p of pages) f(p); const d = process.cpuUsage(t); return (d.user + d.system) / 1e3; };
for (const stage of ['tokens', 'full'] as const) {
  for (let i = 0; i < 2; i++) { cpu(base[stage]); cpu(cur[stage]); }
  let b = Infinity, c = Infinity;
  for (let i = 0; i < 6; i++) { if (i % 2) { b = Math.min(b, cpu(base[stage])); c = Math.min(c, cpu(cur[stage])); } else { c = Math.min(c, cpu(cur[stage])); b = Math.min(b, cpu(base[stage])); } }
  console.log(stage, 'base', b.toFixed(0), 'ms this', c.toFixed(0), 'ms ratio this/base', (c / b).toFixed(3));
}
