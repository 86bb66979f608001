import { isSafeUrl, sanitizeModelMarkdown } from './sanitize-markdown';

describe('sanitizing model markdown', () => {
  it('removes raw HTML, script and style elements with their content', () => {
    expect(sanitizeModelMarkdown('Hello <script>alert(1)</script>world <b>bold</b><img src=x onerror=alert(1)>!')).toBe('Hello world bold!');
    expect(sanitizeModelMarkdown('a <!-- hidden --> b <style>p{}</style>c')).toBe('a  b c');
  });

  it('keeps the text of links and images whose target is not http(s) or relative', () => {
    expect(sanitizeModelMarkdown('[click](javascript:alert(1)) and [ok](https://x.test/a_(b)) and [rel](../page.md#x)')).toBe(
      'click and [ok](https://x.test/a_(b)) and [rel](../page.md#x)',
    );
    expect(sanitizeModelMarkdown('![pic](data:image/png;base64,AAAA) [x](JaVaScRiPt&#58;alert(1) "t")')).toBe('pic x');
    expect(sanitizeModelMarkdown('<javascript:alert(1)> <https://x.test>')).toBe(' <https://x.test>');
    expect(sanitizeModelMarkdown('[a][r]\n\n[r]: javascript:alert(1)\n')).toBe('[a][r]\n\n\n');
  });

  it('leaves code alone', () => {
    const code = 'Use `<match **>` here:\n\n```xml\n<source>\n  @type tail\n</source>\n```\n';
    expect(sanitizeModelMarkdown(code)).toBe(code);
  });

  it('accepts http(s) and relative URLs only', () => {
    expect(['https://a', 'HTTP://a', '/x', '#y', 'page.md', '//cdn.test/x'].every(isSafeUrl)).toBe(true);
    expect(['javascript:x', ' javascript:x', 'java\tscript:x', 'vbscript:x', 'data:text/html,x', 'mailto:a@b', 'javascript&colon;x'].some(isSafeUrl)).toBe(false);
  });
});
