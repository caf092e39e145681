import { escapeHtml } from '../store/index.js';
import type { DemoItem } from './demo-catalogue.js';
import { priceMarker, switcherElement, widgetElement } from './embed.js';

/** Server-rendered demo shop pages: base currency, price markers, switcher. Identical for every visitor. */

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2330;background:#f6f7fb}
header{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.9rem 2rem;background:#fff;border-bottom:1px solid #e3e5ee}
header a{color:inherit;text-decoration:none;font-weight:700;font-size:1.25rem}main{max-width:1100px;margin:0 auto;padding:1.5rem 2rem 3rem}
.note{color:#5b6073;font-size:.9rem;margin:.2rem 0 1.2rem}.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:1rem;list-style:none;margin:0;padding:0}
.card{background:#fff;border:1px solid #e3e5ee;border-radius:10px;padding:1rem;display:flex;flex-direction:column;gap:.4rem}
.thumb{height:90px;border-radius:8px;background:linear-gradient(135deg,#dfe7ff,#f3e8ff);display:flex;align-items:center;justify-content:center;font-size:2rem;font-weight:700;color:#4b55a0}
.card h2{font-size:1.05rem;margin:.2rem 0 0}.card h2 a{color:inherit}.card p{margin:0;color:#5b6073;font-size:.9rem}
.price{font-size:1.1rem;font-weight:600}del{color:#8a8fa3;font-weight:400;margin-right:.3rem}ins{text-decoration:none}
.screen-reader-text{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.variations{list-style:none;padding:0;margin:.8rem 0}.variations li{display:flex;justify-content:space-between;gap:1rem;padding:.4rem 0;border-bottom:1px solid #eceef4}
.product{background:#fff;border:1px solid #e3e5ee;border-radius:10px;padding:1.5rem}.back{display:inline-block;margin-bottom:1rem}
`;

function layout(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
${head}
</head>
<body>
<header><a href="/demo/shop">Rova demo shop</a>${switcherElement()}</header>
<main>
${body}
</main>
</body>
</html>
`;
}

function text(s: string): string {
  return escapeHtml(
    s
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

function price(id: number, html: string): string {
  return html === '' ? '' : `<div class="price">${priceMarker(id, html)}</div>`;
}

function initial(name: string): string {
  return escapeHtml((name.trim()[0] ?? '?').toUpperCase());
}

export function shopPage(head: string, items: DemoItem[], base: string): string {
  const cards = items
    .filter((i) => i.listed)
    .map(
      (i) => `<li class="card"><div class="thumb" aria-hidden="true">${initial(i.name)}</div>
<h2><a href="/demo/shop/${encodeURIComponent(i.slug)}">${escapeHtml(i.name)}</a></h2>
${i.shortDescription ? `<p>${text(i.shortDescription)}</p>` : ''}
${price(i.id, i.priceHtml)}</li>`,
    )
    .join('\n');
  const body = `<h1>Shop</h1>
<p class="note">This page is cached for everyone with prices in ${escapeHtml(base)}; your browser re-prices them in your currency.</p>
<ul class="grid">
${cards || '<li>No products yet.</li>'}
</ul>`;
  return layout('Shop – Rova demo', head, body);
}

export function productPage(head: string, item: DemoItem): string {
  const variations =
    item.variations.length === 0
      ? ''
      : `<h2>Options</h2><ul class="variations">${item.variations
          .map((v) => `<li><span>${escapeHtml(v.name)}</span>${v.priceHtml ? priceMarker(v.id, v.priceHtml) : ''}</li>`)
          .join('')}</ul>`;
  const body = `<a class="back" href="/demo/shop">&larr; All products</a>
<article class="product">
<h1>${escapeHtml(item.name)}</h1>
${price(item.id, item.priceHtml)}
${widgetElement(item.id)}
${item.description ? `<p>${text(item.description)}</p>` : ''}
${variations}
</article>`;
  return layout(`${item.name} – Rova demo`, head, body);
}
