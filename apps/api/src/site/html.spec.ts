import { html, safeUrl, trusted } from './html';

describe('html', () => {
  it('escapes every interpolation that is not already markup', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p title="${'"x\' & <y>'}">${inner}${['<a>', 1, null, undefined, false]}</p>`.value).toBe('<p title="&quot;x&#39; &amp; &lt;y&gt;"><b>&lt;i&gt;</b>&lt;a&gt;1</p>');
    expect(html`${trusted('<br>')}`.value).toBe('<br>');
  });

  it('lets through relative URLs and harmless schemes only', () => {
    expect(safeUrl('../a.md#b')).toBe('../a.md#b');
    expect(safeUrl('https://example.com')).toBe('https://example.com');
    expect(safeUrl('mailto:someone@example.com')).toBe('mailto:someone@example.com');
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeUrl('  java\nscript:alert(1)')).toBeUndefined();
    expect(safeUrl('data:text/html;base64,PHNjcmlwdD4=')).toBeUndefined();
    expect(safeUrl('/\\evil.example')).toBeUndefined();
  });
});
