import { formatMoney } from '../../lib/format';

export type SideEffect = 'none' | 'penalty_waived' | 'penalty_applied' | 'penalty_reversed';

const SIDE_EFFECTS: Record<SideEffect, string> = {
  none: 'no money moved',
  penalty_waived: 'penalty waived',
  penalty_applied: 'penalty applied',
  penalty_reversed: 'penalty reversed',
};

/** What a report decision did, in words: "Report resolved — penalty reversed ($12.34)". */
export function describeDecision(
  d: { status: string; side_effect: SideEffect; penalty_amount: number | null; currency: string },
  locale?: string,
): string {
  const amount =
    d.penalty_amount !== null && d.side_effect !== 'none'
      ? ` (${formatMoney(d.penalty_amount, d.currency, locale)})`
      : '';
  return `Report ${d.status.replace('_', ' ')} — ${SIDE_EFFECTS[d.side_effect]}${amount}`;
}
