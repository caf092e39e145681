/**
 * A broken domain rule, told without HTTP (the ledger refusing a reused key, a vehicle already taken). The module
 * that owns the rule maps it to its namespace's error in one place (its `errors.ts`, through `NamespaceInfo.
 * domainErrors`), so the rule's code can be called from a route, a job, the CLI or the importer alike.
 */
export abstract class DomainError extends Error {
  constructor(
    message: string,
    /** Facts about the failure a caller may show (a field, a conflicting id); the HTTP mapping may pass them on. */
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
