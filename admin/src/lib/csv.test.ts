import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('CSV of what a report shows', () => {
  it('quotes what needs quoting, keeps numbers, defuses formulas', () => {
    expect(
      toCsv(
        ['Name', 'Revenue'],
        [
          ['Can, Öztürk', 12.5],
          ['Say "hi"', -3],
          ['=HYPERLINK()', null],
          ['line\nbreak', 0],
        ],
      ),
    ).toBe('Name,Revenue\r\n"Can, Öztürk",12.5\r\n"Say ""hi""",-3\r\n\'=HYPERLINK(),\r\n"line\nbreak",0\r\n');
  });
});
