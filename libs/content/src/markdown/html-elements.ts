/**
 * Names of the elements of the HTML standard (plus a few obsolete ones browsers still know).
 * A tag with another name (`<your-api-token>`, `<space-id>`) is a placeholder the author means
 * to be read, not markup, so the converter keeps it as text.
 */
const HTML_ELEMENTS = new Set(
  (
    'a abbr address area article aside audio b base bdi bdo big blink blockquote body br button canvas caption center cite code col colgroup ' +
    'data datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 ' +
    'head header hgroup hr html i iframe img input ins kbd label legend li link main map mark marquee menu meta meter nav nobr noscript object ol ' +
    'optgroup option output p param picture pre progress q rp rt ruby s samp script search section select slot small source span strike strong ' +
    'style sub summary sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr math'
  ).split(' '),
);

export function isHtmlElementName(name: string): boolean {
  return HTML_ELEMENTS.has(name.toLowerCase());
}
