/**
 * Vehicle attributes as the API sends them (`suv`, `petrol`, `automatic`) in words, per language. A value the list
 * does not know is shown in sentence case, with the usual acronyms kept in capitals.
 */
/** The widget's languages (index.ts's `Lang`, named here so that the two files do not import each other). */
type Lang = 'en' | 'de' | 'tr';

const WORDS: Record<Lang, Record<string, string>> = {
  en: {
    economy: 'Economy',
    compact: 'Compact',
    midsize: 'Midsize',
    suv: 'SUV',
    premium: 'Premium',
    luxury: 'Luxury',
    van: 'Van',
    minivan: 'Minivan',
    convertible: 'Convertible',
    petrol: 'Petrol',
    diesel: 'Diesel',
    hybrid: 'Hybrid',
    electric: 'Electric',
    lpg: 'LPG',
    manual: 'Manual',
    automatic: 'Automatic',
  },
  de: {
    economy: 'Kleinwagen',
    compact: 'Kompaktklasse',
    midsize: 'Mittelklasse',
    suv: 'SUV',
    premium: 'Oberklasse',
    luxury: 'Luxusklasse',
    van: 'Transporter',
    minivan: 'Van',
    convertible: 'Cabrio',
    petrol: 'Benzin',
    diesel: 'Diesel',
    hybrid: 'Hybrid',
    electric: 'Elektro',
    lpg: 'Autogas (LPG)',
    manual: 'Schaltgetriebe',
    automatic: 'Automatik',
  },
  tr: {
    economy: 'Ekonomik',
    compact: 'Kompakt',
    midsize: 'Orta sınıf',
    suv: 'SUV',
    premium: 'Premium',
    luxury: 'Lüks',
    van: 'Minibüs',
    minivan: 'Minivan',
    convertible: 'Üstü açık',
    petrol: 'Benzin',
    diesel: 'Dizel',
    hybrid: 'Hibrit',
    electric: 'Elektrik',
    lpg: 'LPG',
    manual: 'Manuel',
    automatic: 'Otomatik',
  },
};

const ACRONYMS = new Set(['suv', 'lpg', 'ev', 'mpv', 'awd', '4wd']);

export function attributeWord(lang: Lang, value: string): string {
  const key = value.trim().toLowerCase();
  const known = WORDS[lang][key];
  if (known) return known;
  const words = key.replace(/[_-]+/g, ' ').split(' ').filter(Boolean);
  const text = words.map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w)).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
