import { describe, expect, it } from 'vitest';
import { describeDecision } from './report-outcome';

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('vendor report decision in words', () => {
  it('names the side effect and the amount in the store currency', () => {
    expect(
      describeDecision(
        { status: 'resolved', side_effect: 'penalty_reversed', penalty_amount: 12.34, currency: 'USD' },
        'en-US',
      ),
    ).toBe('Report resolved — penalty reversed ($12.34)');
    expect(
      plain(
        describeDecision(
          { status: 'rejected', side_effect: 'penalty_applied', penalty_amount: 1500, currency: 'EUR' },
          'de-DE',
        ),
      ),
    ).toBe('Report rejected — penalty applied (1.500,00 €)');
    expect(
      describeDecision(
        { status: 'resolved', side_effect: 'penalty_waived', penalty_amount: 0, currency: 'USD' },
        'en-US',
      ),
    ).toBe('Report resolved — penalty waived ($0.00)');
  });

  it('says nothing about money when none moved', () => {
    expect(
      describeDecision({ status: 'in_review', side_effect: 'none', penalty_amount: null, currency: 'USD' }, 'en-US'),
    ).toBe('Report in review — no money moved');
    expect(
      describeDecision({ status: 'resolved', side_effect: 'none', penalty_amount: 5, currency: 'USD' }, 'en-US'),
    ).toBe('Report resolved — no money moved');
  });
});
