/** Ledger account codes (design §6). Vendor accounts are created on first use. */
export type VendorBucket = 'pending' | 'available' | 'payout_hold';

export const PLATFORM_COMMISSION = 'platform:commission';
export const PLATFORM_PENALTIES = 'platform:penalties';
export const EXTERNAL = 'external';

export function vendorAccount(vendorId: number, bucket: VendorBucket): string {
  return `vendor:${vendorId}:${bucket}`;
}

/** The vendor id of a `vendor:{id}:…` code, or null for platform/external accounts. */
export function vendorOfAccount(code: string): number | null {
  const m = /^vendor:(\d+):(pending|available|payout_hold)$/.exec(code);
  return m ? Number(m[1]) : null;
}

export function isAccountCode(code: string): boolean {
  return (
    code === PLATFORM_COMMISSION || code === PLATFORM_PENALTIES || code === EXTERNAL || vendorOfAccount(code) !== null
  );
}

export const LEDGER_KINDS = [
  'commission',
  'commission_clearing',
  'commission_refund',
  'payout_hold',
  'payout_release',
  'payout_paid',
  'payout_reversal',
  'penalty',
  'penalty_reversal',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
