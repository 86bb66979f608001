/**
 * HTML built only through `html` templates: every interpolated value is escaped unless it is
 * already `SafeHtml` (the result of another template), so content can never open a tag or
 * leave an attribute. Attributes are always written in double quotes.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function append(out: string[], value: HtmlValue): void {
  if (value === null || value === undefined || value === false) return;
  if (value instanceof SafeHtml) out.push(value.value);
  else if (Array.isArray(value)) for (const v of value) append(out, v);
  else out.push(escapeHtml(String(value)));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  const out: string[] = [strings[0]];
  for (let i = 0; i < values.length; i++) {
    append(out, values[i]);
    out.push(strings[i + 1]);
  }
  return new SafeHtml(out.join(''));
}

/** Markup written by this module itself (styles, scripts), never content. */
export const trusted = (markup: string) => new SafeHtml(markup);

/** Schemes that open something outside the page; none of them runs code in it. */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto', 'tel', 'sms', 'ftp', 'ftps', 'sftp', 'ssh', 'git', 'news', 'nntp', 'irc', 'ircs', 'xmpp', 'magnet']);

/**
 * The URL when a browser following it stays harmless: relative, or one of the schemes above.
 * Browsers drop tabs, newlines and leading control characters before reading the scheme, so
 * the check does too (`java\tscript:` is `javascript:`).
 */
export function safeUrl(url: string): string | undefined {
  const squeezed = url.replace(/[\u0000-\u0020\u007f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed);
  if (scheme && !ALLOWED_SCHEMES.has(scheme[1].toLowerCase())) return undefined;
  if (squeezed.startsWith('\\') || squeezed.startsWith('/\\')) return undefined;
  return url.trim();
}
