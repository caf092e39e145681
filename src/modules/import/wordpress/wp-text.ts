/** WordPress's text sanitisers the import has to agree with (formatting.php), written from their documented behaviour. */

/** Letters remove_accents spells out because Unicode gives them no base letter to decompose to. */
const SPELLED: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  œ: 'oe',
  Œ: 'OE',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ł: 'l',
  Ł: 'L',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŧ: 't',
  Ŧ: 'T',
  ŀ: 'l',
  Ŀ: 'L',
  ĸ: 'k',
  ŉ: 'n',
  ŋ: 'n',
  Ŋ: 'N',
  ſ: 's',
  ĳ: 'ij',
  Ĳ: 'IJ',
};

/** remove_accents: Latin letters with marks → their base letters (Kırmızı → Kirmizi, Vizör → Vizor, Straße → Strasse). */
export function removeAccents(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ßæÆøØœŒđĐðÐþÞłŁıħĦŧŦŀĿĸŉŋŊſĳĲ]/g, (c) => SPELLED[c] ?? c)
    .normalize('NFC');
}

/** wp_strip_all_tags: script and style elements with their content, then every tag. */
function stripAllTags(s: string): string {
  return s.replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, '').replace(/<[^>]*>?/g, '');
}

/**
 * sanitize_user($login, true), as wp_insert_user stores a login: tags stripped, accents removed, octets and entities
 * removed, then only letters, digits, space, _ . - @ kept; trimmed, runs of white space made one space.
 */
export function sanitizeUser(login: string): string {
  return removeAccents(stripAllTags(login))
    .replace(/%[a-fA-F0-9]{2}/g, '')
    .replace(/&.+?;/g, '')
    .replace(/[^a-z0-9 _.\-@]/gi, '')
    .trim()
    .replace(/\s+/g, ' ');
}

/** sanitize_title (remove_accents + sanitize_title_with_dashes), as WooCommerce keys a custom attribute: "Vizör" → "vizor". */
export function sanitizeTitle(title: string): string {
  return removeAccents(stripAllTags(title))
    .toLowerCase()
    .replace(/&.+?;/g, '')
    .replace(/\./g, '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}
