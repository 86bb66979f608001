/** Tabs switch with CSS alone for up to this many tabs per block (more show their first tab). */
const MAX_TABS = 12;

const tabRules = Array.from(
  { length: MAX_TABS },
  (_, i) => `.tabs>.tab-radio:nth-of-type(${i + 1}):checked~.tab-panel:nth-of-type(${i + 1})`,
).join(',\n');

/** The site's whole stylesheet, inlined in every page (one request per page, no asset pipeline). */
export const SITE_STYLE = `
:root{--fg:#1f2328;--muted:#59636e;--bg:#fff;--soft:#f6f8fa;--border:#d1d9e0;--accent:#346ddb;--accent-soft:#eef3fd;
--info:#346ddb;--success:#1a7f37;--warning:#9a6700;--danger:#cf222e;--sidebar:280px;--header:60px;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg);line-height:1.6}
*{box-sizing:border-box}
body{margin:0}
a{color:var(--accent);text-decoration:none}
a:hover{text-decoration:underline}
.site-header{position:sticky;top:0;z-index:10;height:var(--header);display:flex;align-items:center;gap:16px;padding:0 20px;border-bottom:1px solid var(--border);background:rgba(255,255,255,.96)}
.site-title{font-weight:650;font-size:1.1rem;color:var(--fg);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.site-title:hover{text-decoration:none}
.nav-toggle{display:none}
.nav-toggle-label{display:none;cursor:pointer;font-size:1.4rem;padding:4px 8px}
form.search{position:relative;margin-left:auto;width:min(420px,50vw)}
form.search input{width:100%;font:inherit;padding:7px 12px;border:1px solid var(--border);border-radius:8px;background:var(--soft)}
form.search input:focus{outline:2px solid var(--accent);outline-offset:-1px;background:#fff}
.search-results{position:absolute;top:calc(100% + 6px);right:0;width:min(560px,90vw);max-height:70vh;overflow:auto;background:#fff;border:1px solid var(--border);border-radius:10px;box-shadow:0 8px 24px rgba(31,35,40,.15);margin:0;padding:6px;list-style:none}
.search-results li a,.search-page .hit a{display:block;padding:8px 10px;border-radius:6px;color:var(--fg)}
.search-results li a:hover,.search-results li a:focus{background:var(--accent-soft);text-decoration:none}
.hit-title{font-weight:600;display:block}
.hit-path{font-size:.8rem;color:var(--muted);display:block}
.hit-body{font-size:.88rem;color:var(--muted);display:block;overflow-wrap:anywhere}
.search-empty{padding:10px;color:var(--muted)}
.layout{display:flex;align-items:flex-start;max-width:1440px;margin:0 auto}
.sidebar{position:sticky;top:var(--header);width:var(--sidebar);flex:none;height:calc(100vh - var(--header));overflow-y:auto;padding:20px 12px 40px 20px;border-right:1px solid var(--border);font-size:.93rem}
.sidebar ul{list-style:none;margin:0;padding:0}
.sidebar ul ul{padding-left:12px;margin-left:8px;border-left:1px solid var(--border)}
.sidebar li a{display:block;padding:4px 8px;border-radius:6px;color:var(--fg)}
.sidebar li a:hover{background:var(--soft);text-decoration:none}
.sidebar li a.active{background:var(--accent-soft);color:var(--accent);font-weight:600}
.sidebar a.external::after{content:" ↗";color:var(--muted)}
.sidebar details>summary{list-style:none;display:flex;align-items:center;cursor:pointer}
.sidebar details>summary::-webkit-details-marker{display:none}
.sidebar details>summary>a{flex:1}
.sidebar details>summary::after{content:"›";color:var(--muted);padding:0 6px;transition:transform .15s}
.sidebar details[open]>summary::after{transform:rotate(90deg)}
.nav-group{margin-bottom:18px}
.nav-group-title{font-size:.75rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 6px 8px;font-weight:650}
main{flex:1;min-width:0;display:flex;gap:32px;padding:32px 40px 80px}
article{flex:1;min-width:0;max-width:780px}
.breadcrumbs{font-size:.85rem;color:var(--muted);margin-bottom:4px}
.breadcrumbs span+span::before{content:" / "}
article h1{font-size:2.1rem;line-height:1.25;margin:0 0 8px}
.description{font-size:1.15rem;color:var(--muted);margin:0 0 24px}
article h2,article h3,article h4{line-height:1.3;margin:1.8em 0 .6em;scroll-margin-top:calc(var(--header) + 12px)}
article h2{font-size:1.55rem}article h3{font-size:1.25rem}article h4{font-size:1.05rem}
.anchor{margin-left:8px;color:var(--muted);opacity:0;font-weight:400}
h2:hover .anchor,h3:hover .anchor,h4:hover .anchor,.anchor:focus{opacity:1}
code,kbd,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
:not(pre)>code{background:var(--soft);border:1px solid var(--border);border-radius:5px;padding:.1em .35em}
kbd{border:1px solid var(--border);border-bottom-width:2px;border-radius:4px;padding:0 .35em;background:var(--soft)}
figure{margin:1.2em 0}
figure.code{border:1px solid var(--border);border-radius:10px;overflow:hidden;background:var(--soft)}
figure.code figcaption{display:flex;align-items:center;justify-content:space-between;padding:4px 12px;font-size:.82rem;color:var(--muted);border-bottom:1px solid var(--border)}
figure.code figcaption:has(.code-title:empty):has(.copy[hidden]){display:none}
figure.code pre{margin:0;padding:12px 16px;overflow-x:auto;line-height:1.5}
figure.code.numbered code{counter-reset:line}
figure.code.numbered .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2.5em;margin-right:1em;text-align:right;color:var(--muted)}
.copy{font:inherit;font-size:.8rem;border:1px solid var(--border);background:#fff;border-radius:6px;padding:1px 8px;cursor:pointer}
.hint{display:flex;gap:10px;border:1px solid;border-left-width:4px;border-radius:8px;padding:10px 14px;margin:1.2em 0}
.hint-body>:first-child{margin-top:0}.hint-body>:last-child{margin-bottom:0}
.hint-icon::before{font-weight:700}
.hint-info{border-color:var(--info);background:#f0f5ff}.hint-info .hint-icon::before{content:"ℹ";color:var(--info)}
.hint-success{border-color:var(--success);background:#effaf1}.hint-success .hint-icon::before{content:"✓";color:var(--success)}
.hint-warning{border-color:var(--warning);background:#fff8e5}.hint-warning .hint-icon::before{content:"⚠";color:var(--warning)}
.hint-danger{border-color:var(--danger);background:#fff0f0}.hint-danger .hint-icon::before{content:"⛔";color:var(--danger)}
.tabs{display:flex;flex-wrap:wrap;border:1px solid var(--border);border-radius:10px;margin:1.2em 0;overflow:hidden}
.tabs>.tab-radio{position:absolute;opacity:0;pointer-events:none}
.tabs>.tab-label{padding:8px 16px;cursor:pointer;color:var(--muted);border-bottom:2px solid transparent;background:var(--soft)}
.tabs>.tab-radio:checked+.tab-label{color:var(--fg);border-bottom-color:var(--accent);background:#fff;font-weight:600}
.tabs>.tab-radio:focus-visible+.tab-label{outline:2px solid var(--accent)}
.tabs>.tab-panel{order:1;flex-basis:100%;display:none;padding:4px 16px;border-top:1px solid var(--border)}
${tabRules}{display:block}
details.expandable{border:1px solid var(--border);border-radius:10px;margin:1.2em 0;padding:0 14px}
details.expandable>summary{cursor:pointer;padding:10px 0;font-weight:600}
.expandable-body{padding-bottom:8px}
.table-wrap{overflow-x:auto;margin:1.2em 0}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{border:1px solid var(--border);padding:8px 12px;text-align:left;vertical-align:top}
th{background:var(--soft)}
td>p:first-child{margin-top:0}td>p:last-child{margin-bottom:0}
.align-center{text-align:center}.align-right{text-align:right}
figure.image{text-align:center}
img{max-width:100%;height:auto}
figure.image figcaption{font-size:.88rem;color:var(--muted);margin-top:6px}
.card{display:flex;flex-direction:column;border:1px solid var(--border);border-radius:10px;padding:12px 16px;margin:1em 0;color:var(--fg)}
.card:hover{border-color:var(--accent);text-decoration:none}
.card-title{font-weight:600;color:var(--accent)}
.align-left{text-align:left}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:16px;margin:1.2em 0}.cards-large{grid-template-columns:repeat(auto-fill,minmax(320px,1fr))}
.cards>.table-card{margin:0;padding:0;overflow:hidden;color:var(--fg)}.card-cover{width:100%;aspect-ratio:16/9;object-fit:cover;display:block}
.card-body{padding:12px 16px}.card-field>:first-child{margin-top:0}.card-field>:last-child{margin-bottom:0}.card-field h4{margin:.2em 0}
.button{display:inline-block;padding:6px 14px;border-radius:8px;border:1px solid var(--accent);font-weight:600;margin:2px 4px 2px 0}
.button-primary{background:var(--accent);color:#fff}.button-secondary{background:var(--bg);color:var(--accent)}.button:hover{text-decoration:none;opacity:.9}
.icon::before{content:"◆";color:var(--accent)}code.expression{background:var(--accent-soft);color:var(--accent)}
img.inline-line{height:1.2em;width:auto;vertical-align:text-bottom}
mark.colored{background:none;color:inherit}mark.color-green{color:#1a7f37}mark.color-blue{color:#0969da}mark.color-red{color:#cf222e}mark.color-orange{color:#bc4c00}mark.color-yellow{color:#9a6700}mark.color-purple{color:#8250df}mark.color-pink{color:#bf3989}mark.color-violet{color:#6639ba}mark.color-cyan{color:#1b7c83}mark.color-primary,mark.color-info{color:var(--accent)}mark.color-success{color:var(--success)}mark.color-warning{color:var(--warning)}mark.color-danger{color:var(--danger)}
mark.bg-green{background:#dafbe1}mark.bg-blue{background:#ddf4ff}mark.bg-red{background:#ffebe9}mark.bg-orange{background:#fff1e5}mark.bg-yellow{background:#fff8c5}mark.bg-purple{background:#fbefff}mark.bg-pink{background:#ffeff7}mark.bg-violet{background:#f1ebfc}mark.bg-cyan{background:#d8f5f7}mark.bg-primary,mark.bg-info,mark.bg-tint{background:var(--accent-soft)}mark.bg-success{background:#effaf1}mark.bg-warning{background:#fff8e5}mark.bg-danger{background:#fff0f0}
.tag{display:inline-block;padding:0 8px;border-radius:10px;background:var(--accent-soft);color:var(--accent);font-size:.8rem;font-weight:600}.rating{color:#bf8700}
.update{border-left:2px solid var(--border);padding-left:16px;margin:1.5em 0}.update-date{display:block;color:var(--muted);font-size:.85rem;margin-bottom:.4em}
.api-method{font-family:var(--mono,monospace);color:var(--accent)}
.card-meta{font-size:.88rem;color:var(--muted);overflow:hidden;text-overflow:ellipsis}
.math code{background:none;border:0}
div.math{overflow-x:auto;text-align:center;margin:1em 0}
ul.tasks{list-style:none;padding-left:4px}
li.task{display:flex;align-items:baseline;gap:8px}
li.task>p{margin:.2em 0}
blockquote{margin:1em 0;padding:0 16px;border-left:4px solid var(--border);color:var(--muted)}
hr{border:0;border-top:1px solid var(--border);margin:2em 0}
ol.stepper{counter-reset:step;list-style:none;padding-left:0}
ol.stepper>li{counter-increment:step;position:relative;padding-left:44px;margin-bottom:1em}
ol.stepper>li::before{content:counter(step);position:absolute;left:0;top:0;width:28px;height:28px;border-radius:50%;background:var(--accent-soft);color:var(--accent);font-weight:700;display:flex;align-items:center;justify-content:center}
.columns{display:flex;gap:24px;flex-wrap:wrap}.column{flex:1;min-width:220px}
.broken-link{text-decoration:underline dotted;color:var(--muted)}
.pager{display:flex;gap:16px;margin-top:48px}
.pager a{flex:1;border:1px solid var(--border);border-radius:10px;padding:10px 16px;color:var(--fg)}
.pager a:hover{border-color:var(--accent);text-decoration:none}
.pager .next{text-align:right}
.pager small{display:block;color:var(--muted)}
.outline{position:sticky;top:calc(var(--header) + 32px);width:220px;flex:none;font-size:.85rem}
.outline h2{font-size:.75rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 8px}
.outline ul{list-style:none;margin:0;padding:0;border-left:1px solid var(--border)}
.outline li a{display:block;padding:3px 12px;color:var(--muted)}
.outline li.level-2 a{padding-left:24px}
.search-page .hit{list-style:none;border-bottom:1px solid var(--border)}
.search-page ol{padding:0}
.not-found{padding:40px 0}
@media (max-width:1180px){.outline{display:none}}
@media (max-width:800px){
 .nav-toggle-label{display:block}
 .sidebar{display:none;position:fixed;top:var(--header);left:0;z-index:5;background:#fff;width:85vw}
 .nav-toggle:checked~.layout .sidebar{display:block}
 main{padding:20px}
}
`;
