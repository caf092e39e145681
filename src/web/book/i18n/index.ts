import { de } from './de.js';
import { en, type MessageKey, type Messages } from './en.js';
import { tr } from './tr.js';
import { attributeWord } from './attributes.js';

export type Lang = 'en' | 'de' | 'tr';

/** The widget's languages, each named in itself (the language switch's choices). */
export const LANGUAGES: readonly [Lang, string][] = [
  ['en', 'English'],
  ['de', 'Deutsch'],
  ['tr', 'Türkçe'],
];
const ALL: Record<Lang, Messages> = { en, de, tr };
const LOCALE: Record<Lang, string> = { en: 'en-GB', de: 'de-DE', tr: 'tr-TR' };

/** `de-AT` → `de`; unknown → null. */
export function pickLang(value: string | null | undefined): Lang | null {
  const l = (value ?? '').trim().slice(0, 2).toLowerCase();
  return l === 'en' || l === 'de' || l === 'tr' ? l : null;
}

export interface I18n {
  lang: Lang;
  t(key: MessageKey, vars?: Record<string, string | number>): string;
  money(amount: number, currency: string): string;
  date(isoDate: string, time?: string): string;
  /** An instant (ISO-8601 with zone) in the visitor's time zone, the zone named. */
  when(iso: string): string;
  /**
   * The name of time zone `tz` (IANA) at instant `iso` when the visitor's clock reads otherwise then; null when it
   * reads the same (no need to name a zone the visitor is in).
   */
  zone(tz: string, iso: string): string | null;
  /** A booking or thread status in words (the code itself when unknown). */
  status(code: string): string;
  /** The weekday of a calendar date (YYYY-MM-DD), in words. */
  weekday(isoDate: string): string;
  /** A vehicle attribute (`suv`, `petrol`, `automatic`) in words. */
  attr(value: string): string;
  /** A currency's name in the language (`Intl.DisplayNames`), else `fallback`. */
  currencyName(code: string, fallback: string): string;
}

const WALL: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'short' };

export function i18n(lang: Lang): I18n {
  const m = ALL[lang];
  const locale = LOCALE[lang];
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const money = new Map<string, Intl.NumberFormat>();
  const instants = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const zone = new Intl.DateTimeFormat(locale, { timeZoneName: 'short' });
  return {
    lang,
    t: (key, vars) => m[key].replace(/\{(\w+)\}/g, (_, k: string) => String(vars?.[k] ?? '')),
    money(amount, currency) {
      let f = money.get(currency);
      if (!f) {
        try {
          f = new Intl.NumberFormat(locale, { style: 'currency', currency });
        } catch {
          f = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
        }
        money.set(currency, f);
      }
      return f.format(amount);
    },
    // the store's wall-clock date and time, shown as written (no conversion to the visitor's zone)
    date: (isoDate, time = '10:00') => dates.format(new Date(`${isoDate}T${time}:00Z`)),
    when(iso) {
      const d = new Date(iso);
      if (Number.isNaN(d.getTime())) return iso;
      const z = zone.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value;
      return z ? `${instants.format(d)} ${z}` : instants.format(d);
    },
    zone(tz, iso) {
      const d = new Date(iso);
      try {
        const clock = (timeZone?: string) => new Intl.DateTimeFormat('en-GB', { ...WALL, timeZone }).format(d);
        if (clock(tz) === clock()) return null;
        // "Los Angeles Time": the place, not the season's abbreviation (a booking may span a change of summer time)
        const name = new Intl.DateTimeFormat(locale, { timeZone: tz, timeZoneName: 'shortGeneric' });
        return name.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? tz;
      } catch {
        return tz; // a zone or name style this browser does not know: the zone's own name
      }
    },
    status: (code) => (`st_${code}` in m ? m[`st_${code}` as MessageKey] : code.replace(/_/g, ' ')),
    attr: (value) => attributeWord(lang, value),
    weekday: (isoDate) =>
      new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${isoDate}T12:00:00Z`)),
    currencyName(code, fallback) {
      try {
        return new Intl.DisplayNames([locale], { type: 'currency' }).of(code) ?? fallback;
      } catch {
        return fallback;
      }
    },
  };
}
