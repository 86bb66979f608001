import { createHash } from 'crypto';

/**
 * The site's only script, inlined and allowed by its hash in the Content-Security-Policy.
 * Pages work without it: the search form submits to the results page and tabs are CSS. It adds
 * results while typing (from `~/search.json`, built with DOM calls, never innerHTML), `/` to
 * focus the search box and copy buttons on code blocks.
 */
export const SITE_SCRIPT = `(() => {
  const form = document.querySelector('form.search');
  const input = form && form.querySelector('input[name=q]');
  const box = form && form.querySelector('.search-results');
  if (form && input && box) {
    let timer = 0, seq = 0;
    const hide = () => { box.hidden = true; };
    const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text) e.textContent = text; return e; };
    const show = (items) => {
      box.replaceChildren();
      if (items.length === 0) box.append(el('li', 'search-empty', 'No results'));
      for (const hit of items) {
        const li = el('li', 'hit'), a = el('a');
        a.href = hit.url;
        a.append(el('span', 'hit-title', hit.title));
        if (hit.ancestors.length) a.append(el('span', 'hit-path', hit.ancestors.join(' / ')));
        if (hit.snippet) a.append(el('span', 'hit-body', hit.snippet));
        li.append(a);
        box.append(li);
      }
      box.hidden = false;
    };
    const run = async () => {
      const q = input.value.trim(), mine = ++seq;
      if (!q) { hide(); return; }
      try {
        const res = await fetch(form.dataset.searchJson + '?query=' + encodeURIComponent(q), { headers: { accept: 'application/json' } });
        if (!res.ok || mine !== seq) return;
        const data = await res.json();
        if (mine === seq) show(data.items);
      } catch { /* the form still submits to the results page */ }
    };
    input.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(run, 120); });
    input.addEventListener('focus', () => { if (box.childElementCount && input.value.trim()) box.hidden = false; });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' && !box.hidden) { const first = box.querySelector('a'); if (first) { e.preventDefault(); first.focus(); } }
    });
    box.addEventListener('keydown', (e) => {
      const links = [...box.querySelectorAll('a')], i = links.indexOf(document.activeElement);
      if (e.key === 'ArrowDown' && i < links.length - 1) { e.preventDefault(); links[i + 1].focus(); }
      if (e.key === 'ArrowUp') { e.preventDefault(); (i > 0 ? links[i - 1] : input).focus(); }
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') hide();
      if (e.key === '/' && !(e.target instanceof Element && e.target.closest('input,textarea,select,[contenteditable]'))) { e.preventDefault(); input.focus(); }
    });
    document.addEventListener('click', (e) => { if (!form.contains(e.target)) hide(); });
  }
  for (const figure of document.querySelectorAll('figure.code')) {
    const button = figure.querySelector('button.copy'), code = figure.querySelector('code');
    if (!button || !code || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', () => {
      navigator.clipboard.writeText(code.innerText).then(() => { button.textContent = 'Copied'; setTimeout(() => { button.textContent = 'Copy'; }, 1500); }, () => undefined);
    });
  }
})();`;

export const SITE_SCRIPT_HASH = `sha256-${createHash('sha256').update(SITE_SCRIPT).digest('base64')}`;
