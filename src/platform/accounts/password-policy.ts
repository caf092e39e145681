/**
 * The one password rule of customer accounts: registration, reset and change all check it, and
 * GET /rova/v1/auth/password/policy publishes it so a form can say it before the server refuses.
 */
export const MIN_PASSWORD = 10;
export const MAX_PASSWORD = 200;

export interface PasswordPolicy {
  min_length: number;
  max_length: number;
  /** The rule in words, as the server's refusal names it. */
  rule: string;
}

export const PASSWORD_RULE = `at least ${MIN_PASSWORD} characters`;

export function passwordPolicy(): PasswordPolicy {
  return { min_length: MIN_PASSWORD, max_length: MAX_PASSWORD, rule: PASSWORD_RULE };
}
