/**
 * The widget's stylesheet, adopted by its shadow root (a constructed stylesheet: no inline <style>, so a strict
 * CSP without 'unsafe-inline' for styles works too). Theming: the --rova-* custom properties
 * (docs/integrators/widget.md), set on the mount element or any ancestor; the rules read them through private --_*
 * copies with the defaults.
 */
import { EXTRAS_CSS } from './extras.js';

export const CSS = `
:host{--_color-primary:var(--rova-color-primary,#0f5ea8);--_color-on-primary:var(--rova-color-on-primary,#fff);--_color-text:var(--rova-color-text,#1f2330);--_color-muted:var(--rova-color-muted,#4b5563);
--_color-background:var(--rova-color-background,#fff);--_color-surface:var(--rova-color-surface,#f4f6fa);--_color-border:var(--rova-color-border,#c9cedb);--_color-error:var(--rova-color-error,#b42318);--_color-success:var(--rova-color-success,#106b3a);
--_radius:var(--rova-radius,8px);--_font:var(--rova-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);--_space:var(--rova-space,1rem);--_focus:var(--rova-focus,#f59e0b);
display:block;color:var(--_color-text);font:16px/1.5 var(--_font)}
@media (prefers-color-scheme:dark){:host(:not([data-theme=light])){--_color-primary:var(--rova-color-primary,#7cb8f2);--_color-on-primary:var(--rova-color-on-primary,#0b1b2b);--_color-text:var(--rova-color-text,#e8eaf0);
--_color-muted:var(--rova-color-muted,#b6bccb);--_color-background:var(--rova-color-background,#161a22);--_color-surface:var(--rova-color-surface,#1f2430);--_color-border:var(--rova-color-border,#465066);--_color-error:var(--rova-color-error,#ff8a80);--_color-success:var(--rova-color-success,#7ee2a8)}}
:host([data-theme=dark]){--_color-primary:var(--rova-color-primary,#7cb8f2);--_color-on-primary:var(--rova-color-on-primary,#0b1b2b);--_color-text:var(--rova-color-text,#e8eaf0);--_color-muted:var(--rova-color-muted,#b6bccb);
--_color-background:var(--rova-color-background,#161a22);--_color-surface:var(--rova-color-surface,#1f2430);--_color-border:var(--rova-color-border,#465066);--_color-error:var(--rova-color-error,#ff8a80);--_color-success:var(--rova-color-success,#7ee2a8)}
*{box-sizing:border-box}
.root{background:var(--_color-background);border:1px solid var(--_color-border);border-radius:var(--_radius);padding:var(--_space);max-width:100%}
h2{font-size:1.25rem;margin:0 0 calc(var(--_space)*.75)}form+h2{margin-top:var(--_space)}h2:focus{outline:none}h3{font-size:1.05rem;margin:0}
form,.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(11rem,100%),1fr));gap:calc(var(--_space)*.75);align-items:end}
label{display:flex;flex-direction:column;gap:.25rem;font-size:.9rem;color:var(--_color-muted)}
textarea{resize:vertical}
input,select,textarea{font:inherit;color:var(--_color-text);background:var(--_color-background);border:1px solid var(--_color-border);border-radius:calc(var(--_radius)*.75);padding:.45rem .6rem;min-height:2.5rem;width:100%}
button{font:inherit;cursor:pointer;border-radius:calc(var(--_radius)*.75);padding:.5rem 1rem;min-height:2.5rem;border:1px solid var(--_color-primary);background:var(--_color-primary);color:var(--_color-on-primary);font-weight:600}
button.secondary{background:transparent;color:var(--_color-primary)}button[disabled]{opacity:.6;cursor:progress}
:focus-visible{outline:3px solid var(--_focus);outline-offset:2px}
ul.cards{list-style:none;margin:var(--_space) 0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(min(15rem,100%),1fr));gap:var(--_space)}
.card{background:var(--_color-surface);border:1px solid var(--_color-border);border-radius:var(--_radius);padding:var(--_space);display:flex;flex-direction:column;gap:.35rem}
.meta,.note{color:var(--_color-muted);font-size:.9rem;margin:0}.price{font-weight:700;font-size:1.1rem;margin:0}
table{border-collapse:collapse;width:100%;margin:.5rem 0 var(--_space)}td,th{padding:.35rem 0;border-bottom:1px solid var(--_color-border);text-align:left}td:last-child,th:last-child{text-align:right}
tr.total th,tr.total td{font-weight:700}.ok{color:var(--_color-success);font-weight:600}
.actions{display:flex;flex-wrap:wrap;gap:.6rem;margin-top:var(--_space)}
.alert:not(:empty){margin-top:var(--_space);padding:.6rem .8rem;border:1px solid var(--_color-error);border-radius:var(--_radius);color:var(--_color-error)}
.places{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(14rem,100%),1fr));gap:var(--_space);margin:0 0 var(--_space)}.place p{margin:.15rem 0}
.pay-terms{font-weight:600;margin:0 0 var(--_space)}
.ref{font-size:1.4rem;font-weight:700;letter-spacing:.05em}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.tabs{display:flex;gap:.5rem;margin-bottom:var(--_space)}.tabs button[aria-pressed=false]{background:transparent;color:var(--_color-primary)}
h3{margin-top:var(--_space)}h4{font-size:1rem;margin:0}.card h3{margin-top:0}
form.stack{grid-template-columns:1fr}
nav.tabs{flex-wrap:wrap}nav.tabs button{padding:.4rem .7rem}nav.tabs button[aria-current=page]{background:var(--_color-primary);color:var(--_color-on-primary)}
.notice{margin:0 0 var(--_space)}
ol.thread{list-style:none;margin:0 0 var(--_space);padding:0;display:flex;flex-direction:column;gap:.6rem}
.msg{border:1px solid var(--_color-border);border-radius:var(--_radius);padding:.6rem .8rem;background:var(--_color-surface)}.msg.customer{margin-left:min(2rem,8%)}.msg.admin{margin-right:min(2rem,8%)}
.msg .body{margin:.25rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
:host([data-rova-book-floating-host]){position:fixed;right:max(.75rem,env(safe-area-inset-right));bottom:max(.75rem,env(safe-area-inset-bottom));z-index:2147483000;max-width:calc(100vw - 1.5rem)}
:host([data-rova-book-spacer]){height:4.5rem}
:host([hidden]){display:none}
button.floating{box-shadow:0 4px 14px rgba(10,14,22,.3);border-radius:999px;padding:.7rem 1.2rem;max-width:100%;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
fieldset.pay-with,fieldset.driver{border:1px solid var(--_color-border);border-radius:var(--_radius);padding:.5rem var(--_space);margin:0 0 var(--_space)}legend{color:var(--_color-muted);font-size:.9rem}
label.radio{flex-direction:row;align-items:center;gap:.5rem;color:var(--_color-text);min-height:2.25rem}label.radio input{width:auto;min-height:0}
.card-element{margin:var(--_space) 0}
dialog{border:1px solid var(--_color-border);border-radius:var(--_radius);padding:.5rem;background:var(--_color-background);color:var(--_color-text);width:min(46rem,calc(100vw - 1rem));max-height:calc(100vh - 1rem);overflow:auto}dialog .root{border:none;padding:.25rem .5rem .5rem}
.cover{margin:calc(var(--_space)*-1) calc(var(--_space)*-1) .35rem}.cover img{display:block;width:100%;height:auto;aspect-ratio:3/2;object-fit:cover;border-radius:var(--_radius) var(--_radius) 0 0}
.gallery{margin:0 0 var(--_space)}.gallery .shown img{display:block;width:100%;height:auto;border-radius:var(--_radius)}
.thumbs{display:flex;flex-wrap:wrap;gap:.4rem;margin-top:.4rem}button.thumb{padding:0;min-height:0;background:none;border:2px solid transparent;line-height:0}button.thumb[aria-pressed=true]{border-color:var(--_color-primary)}button.thumb img{width:4.5rem;height:3rem;object-fit:cover;border-radius:calc(var(--_radius)*.5)}
dialog::backdrop{background:rgba(10,14,22,.55)}.dialog-bar{display:flex;justify-content:flex-end;margin-bottom:.25rem}
${EXTRAS_CSS}
`;
