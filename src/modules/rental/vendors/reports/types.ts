/** What a vendor report is about, and where it stands. */
export const CONTEXT_TYPES = ['booking', 'vehicle', 'vehicle_action', 'penalty', 'general'] as const;
export type ContextType = (typeof CONTEXT_TYPES)[number];
export const REPORT_STATUSES = ['open', 'in_review', 'resolved', 'rejected'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
