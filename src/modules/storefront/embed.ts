import type { WebAssets } from './assets.js';
import { configElement, type StorefrontConfig } from './config-object.js';

export interface EmbedOptions {
  switcher?: boolean;
  widget?: boolean;
}

/**
 * Template helper: the `<head>` tags a storefront page needs — stylesheets, the config object (inline JSON),
 * and the scripts (content-hashed, immutable URLs, deferred). Same output for every visitor.
 */
export function embedTags(assets: WebAssets, cfg: StorefrontConfig, opts: EmbedOptions = {}): string {
  const out: string[] = [];
  if (opts.switcher !== false) out.push(`<link rel="stylesheet" href="${assets.url('switcher.css')}">`);
  if (opts.widget) out.push(`<link rel="stylesheet" href="${assets.url('widget.css')}">`);
  out.push(configElement(cfg));
  out.push(`<script src="${assets.url('converter.js')}" defer></script>`);
  if (opts.switcher !== false) out.push(`<script src="${assets.url('switcher.js')}" defer></script>`);
  if (opts.widget) out.push(`<script src="${assets.url('widget.js')}" defer></script>`);
  return out.join('\n');
}

/** Switcher markup: switcher.js fills it with a button and a listbox. */
export function switcherElement(size?: 'small' | 'medium' | 'large'): string {
  return `<div data-rova-fx-switcher${size ? ` data-size="${size}"` : ''} aria-label="Currency"></div>`;
}

/** A price marker around base-currency price HTML (the converter re-prices it). */
export function priceMarker(id: number, baseHtml: string): string {
  return `<span class="rova-fx-price" data-rova-fx-product="${id}">${baseHtml}</span>`;
}

/** Product widget markup: widget.js shows the price in the configured currencies. */
export function widgetElement(id: number): string {
  return `<div class="rova-fx-widget" data-rova-fx-widget data-rova-fx-product="${id}"></div>`;
}
