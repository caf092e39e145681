/** An ILIKE pattern for "contains `term`", with the LIKE wildcards `%`, `_` and the escape `\` taken literally. */
export function containsPattern(term: string): string {
  return '%' + term.replace(/[\\%_]/g, (ch) => '\\' + ch) + '%';
}
