import { Type } from '@sinclair/typebox';
import { PagingQuery } from '../paging.js';
import { Id, Nullable, Text, lit } from '../schemas.js';

export const IdParams = Type.Object({ id: Id({ description: 'Numeric id' }) });

export const DocumentView = Type.Object({
  id: Type.Integer(),
  kind: lit(['id', 'license', 'address'] as const),
  label: Type.String(),
  file_name: Type.String(),
  mime: Type.String(),
  size: Type.Integer(),
  url: Type.String({ description: 'Download link (administrators and the owner only)' }),
});

export const ApplicationItem = Type.Object({
  id: Type.Integer(),
  applicant_id: Type.Integer(),
  applicant_name: Type.String(),
  applicant_email: Type.String(),
  city: Type.String(),
  applied_at: Type.String(),
  status: lit(['pending', 'approved', 'rejected'] as const),
});

export const ApplicationDetail = Type.Object({
  ...ApplicationItem.properties,
  phone: Type.String(),
  account_holder: Type.String(),
  iban_masked: Nullable(
    Type.String({ description: 'First 2 + "** **** " + last 4; the IBAN itself never leaves the server' }),
  ),
  tax_office: Type.String(),
  tax_number: Type.String(),
  bio: Type.String(),
  service_areas: Type.Array(Type.String()),
  terms_version: Type.String(),
  terms_accepted_at: Type.String(),
  rejection_reason: Nullable(Type.String()),
  decided_at: Nullable(Type.String()),
  can_reapply_at: Nullable(
    Type.String({ description: 'After a rejection: when a new application is accepted (24 h later)' }),
  ),
  documents: Type.Array(DocumentView),
});

export const ApplicationsQuery = Type.Object({
  status: Type.Optional(lit(['pending', 'approved', 'rejected', 'all'] as const)),
  search: Type.Optional(Text({ maxLength: 200, description: 'Applicant name, e-mail or city contains' })),
  ...PagingQuery,
});

export const RejectBody = Type.Object(
  { reason: Text({ maxLength: 2000, description: 'Required (400 when empty)' }) },
  { additionalProperties: false },
);

export const Decision = Type.Object({
  id: Type.Integer(),
  status: lit(['approved', 'rejected'] as const),
  vendor_id: Type.Optional(Type.Integer()),
  reason: Type.Optional(Type.String()),
});

/** Multipart form of POST /vendor/application (documented; parsed by the handler with @fastify/multipart). */
export const ApplyForm = Type.Object(
  {
    phone: Type.String(),
    city: Type.String(),
    iban: Type.String({ description: 'Checked by the ISO 13616 mod-97 checksum; stored encrypted' }),
    account_holder: Type.String(),
    tax_office: Type.Optional(Type.String()),
    tax_number: Type.Optional(Type.String()),
    bio: Type.Optional(Type.String()),
    service_areas: Type.Optional(Type.String({ description: 'Comma-separated' })),
    terms_accepted: Type.String({ description: 'true' }),
    terms_version: Type.String({ description: 'The current terms version (GET /vendor/application/terms)' }),
    document_id: Type.String({
      format: 'binary',
      description: 'Identity document (required): PDF, JPEG, PNG or WebP by content, ≤ 10 MB',
    }),
    document_license: Type.Optional(Type.String({ format: 'binary' })),
    document_address: Type.Optional(Type.String({ format: 'binary' })),
  },
  { additionalProperties: false, description: 'Any other field is a 400 INVALID_PARAMS naming it' },
);

export const VendorItem = Type.Object({
  id: Type.Integer({ description: 'The vendor user id' }),
  display_name: Type.String(),
  email: Type.String(),
  city: Type.String(),
  service_areas: Type.Array(Type.String()),
  status: lit(['active', 'suspended'] as const),
  approved_at: Nullable(Type.String()),
  vehicle_count: Type.Integer(),
  reliability_score: Type.Integer(),
  owed: Type.Number({
    description:
      'What the vendor owes the platform (a negative available balance; future income settles it first), 0 when nothing',
  }),
});

export const VendorsQuery = Type.Object({
  search: Type.Optional(Text({ maxLength: 200, description: 'Name, login or e-mail contains' })),
  status: Type.Optional(
    Type.Union(
      ['active', 'suspended', 'all'].map((x) => Type.Literal(x)),
      { description: 'Default active (spec §4: the list of active vendors); all = active and suspended' },
    ),
  ),
  owing: Type.Optional(Type.Boolean({ description: 'true: only vendors who owe the platform (owed > 0)' })),
  sort_by: Type.Optional(lit(['name', 'email', 'approved_at', 'vehicle_count', 'reliability_score', 'owed'] as const)),
  sort_order: Type.Optional(lit(['asc', 'desc'] as const)),
  ...PagingQuery,
});

export const PayoutBrief = Type.Object({
  id: Type.Integer(),
  amount: Type.Number(),
  currency: Type.String(),
  status: Type.String(),
  statement_no: Type.Integer({ description: "The payout's number among the vendor's payouts (#1, #2 …)" }),
  statement_number: Nullable(Type.String()),
  requested_at: Type.String(),
});

export const VendorDetail = Type.Object({
  ...VendorItem.properties,
  phone: Type.String(),
  account_holder: Type.String(),
  tax_office: Type.String(),
  tax_number: Type.String(),
  bio: Type.String(),
  iban_masked: Nullable(Type.String()),
  pending_iban_masked: Nullable(Type.String({ description: 'An IBAN change awaiting approval' })),
  commission_rate: Nullable(Type.Number()),
  suspended_at: Nullable(Type.String()),
  documents: Type.Array(DocumentView),
  statistics: Type.Object({
    available: Type.Number({ description: 'May be below 0: the vendor owes that much (see owed)' }),
    pending: Type.Number(),
    on_hold: Type.Number(),
    total_earned: Type.Number(),
    total_paid_out: Type.Number(),
    penalties: Type.Number(),
    owed: Type.Number({ description: 'What the vendor owes the platform, 0 when nothing' }),
    currency: Type.String(),
    completed_bookings: Type.Integer(),
    refunded_bookings: Type.Integer(),
    vehicle_count: Type.Integer(),
    reliability_score: Type.Integer(),
  }),
  recent_payouts: Type.Array(PayoutBrief),
  score_history: Type.Array(
    Type.Object({
      event_type: Type.String({ description: 'withdraw, pause, cancel, withdrawal_excused, penalty_reversed, …' }),
      vehicle_id: Nullable(Type.Integer()),
      score_before: Type.Integer(),
      score_after: Type.Integer(),
      delta: Type.Integer(),
      created_at: Type.String(),
    }),
    { description: 'Reliability score changes, newest first (at most 10)' },
  ),
  vehicles: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), status: Type.String(), lifecycle: Type.String() }),
  ),
});

export const SuspendResult = Type.Object({
  vendor_id: Type.Integer(),
  status: lit(['active', 'suspended'] as const),
  vehicles_hidden: Type.Optional(Type.Array(Type.Integer())),
  vehicles_restored: Type.Optional(Type.Array(Type.Integer())),
});

export const AuditItem = Type.Object({
  id: Type.Integer(),
  vendor_id: Type.Integer(),
  event_type: Type.String(),
  booking_id: Nullable(Type.Integer()),
  vehicle_id: Nullable(Type.Integer()),
  payout_id: Nullable(Type.Integer()),
  ledger_transaction_id: Nullable(Type.Integer()),
  amount: Nullable(Type.Number({ description: 'Signed; money events only' })),
  currency: Type.String(),
  note: Type.String(),
  admin_user_id: Nullable(Type.Integer()),
  created_at: Type.String(),
});
export const AuditQuery = Type.Object({
  event_type: Type.Optional(Text({ maxLength: 50, pattern: '^[a-z_]+$' })),
  ...PagingQuery,
});

export const IbanBody = Type.Object({ iban: Text({ minLength: 15, maxLength: 42 }) }, { additionalProperties: false });
export const IbanDecision = Type.Object({ vendor_id: Type.Integer(), status: lit(['approved', 'rejected'] as const) });
