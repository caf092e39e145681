/**
 * The widget's stylesheet, adopted by its shadow root (a constructed stylesheet: no inline <style>, so a strict
 * CSP without 'unsafe-inline' for styles works too). Theming: the --rova-* custom properties (README).
 */
export const CSS = `
:host{--rova-color-primary:#0f5ea8;--rova-color-on-primary:#fff;--rova-color-text:#1f2330;--rova-color-muted:#4b5563;
--rova-color-background:#fff;--rova-color-surface:#f4f6fa;--rova-color-border:#c9cedb;--rova-color-error:#b42318;--rova-color-success:#106b3a;
--rova-radius:8px;--rova-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--rova-space:1rem;--rova-focus:#f59e0b;
display:block;color:var(--rova-color-text);font:16px/1.5 var(--rova-font)}
@media (prefers-color-scheme:dark){:host(:not([data-theme=light])){--rova-color-primary:#7cb8f2;--rova-color-on-primary:#0b1b2b;--rova-color-text:#e8eaf0;
--rova-color-muted:#b6bccb;--rova-color-background:#161a22;--rova-color-surface:#1f2430;--rova-color-border:#465066;--rova-color-error:#ff8a80;--rova-color-success:#7ee2a8}}
:host([data-theme=dark]){--rova-color-primary:#7cb8f2;--rova-color-on-primary:#0b1b2b;--rova-color-text:#e8eaf0;--rova-color-muted:#b6bccb;
--rova-color-background:#161a22;--rova-color-surface:#1f2430;--rova-color-border:#465066;--rova-color-error:#ff8a80;--rova-color-success:#7ee2a8}
*{box-sizing:border-box}
.root{background:var(--rova-color-background);border:1px solid var(--rova-color-border);border-radius:var(--rova-radius);padding:var(--rova-space);max-width:100%}
h2{font-size:1.25rem;margin:0 0 calc(var(--rova-space)*.75)}h2:focus{outline:none}h3{font-size:1.05rem;margin:0}
form,.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));gap:calc(var(--rova-space)*.75);align-items:end}
label{display:flex;flex-direction:column;gap:.25rem;font-size:.9rem;color:var(--rova-color-muted)}
input,select{font:inherit;color:var(--rova-color-text);background:var(--rova-color-background);border:1px solid var(--rova-color-border);border-radius:calc(var(--rova-radius)*.75);padding:.45rem .6rem;min-height:2.5rem;width:100%}
button{font:inherit;cursor:pointer;border-radius:calc(var(--rova-radius)*.75);padding:.5rem 1rem;min-height:2.5rem;border:1px solid var(--rova-color-primary);background:var(--rova-color-primary);color:var(--rova-color-on-primary);font-weight:600}
button.secondary{background:transparent;color:var(--rova-color-primary)}button[disabled]{opacity:.6;cursor:progress}
:focus-visible{outline:3px solid var(--rova-focus);outline-offset:2px}
ul.cards{list-style:none;margin:var(--rova-space) 0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:var(--rova-space)}
.card{background:var(--rova-color-surface);border:1px solid var(--rova-color-border);border-radius:var(--rova-radius);padding:var(--rova-space);display:flex;flex-direction:column;gap:.35rem}
.meta,.note{color:var(--rova-color-muted);font-size:.9rem;margin:0}.price{font-weight:700;font-size:1.1rem;margin:0}
table{border-collapse:collapse;width:100%;margin:.5rem 0 var(--rova-space)}td,th{padding:.35rem 0;border-bottom:1px solid var(--rova-color-border);text-align:left}td:last-child,th:last-child{text-align:right}
tr.total th,tr.total td{font-weight:700}.ok{color:var(--rova-color-success);font-weight:600}
.actions{display:flex;flex-wrap:wrap;gap:.6rem;margin-top:var(--rova-space)}
.alert:not(:empty){margin-top:var(--rova-space);padding:.6rem .8rem;border:1px solid var(--rova-color-error);border-radius:var(--rova-radius);color:var(--rova-color-error)}
.ref{font-size:1.4rem;font-weight:700;letter-spacing:.05em}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.tabs{display:flex;gap:.5rem;margin-bottom:var(--rova-space)}.tabs button[aria-pressed=false]{background:transparent;color:var(--rova-color-primary)}
dialog{border:none;padding:0;background:transparent;width:min(46rem,calc(100vw - 1rem));max-height:calc(100vh - 1rem);overflow:auto}
dialog::backdrop{background:rgba(10,14,22,.55)}.dialog-bar{display:flex;justify-content:flex-end;margin-bottom:.25rem}
`;
