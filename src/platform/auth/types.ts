import type { Role } from './roles.js';

export type Scope = 'read' | 'write';
export const SCOPES: readonly Scope[] = ['read', 'write'];

export interface AuthUser {
  id: number;
  login: string;
  email: string;
  displayName: string;
  role: Role;
}

export type AuthMethod = 'anonymous' | 'api_key' | 'cookie' | 'jwt';

/** Why presented credentials were not accepted (the request then counts as anonymous). */
export type AuthFailure =
  | 'invalid_api_key'
  | 'expired_api_key'
  | 'revoked_api_key'
  | 'invalid_session'
  | 'missing_nonce'
  | 'invalid_nonce'
  | 'invalid_token'
  | 'invalid_consumer_key'
  | 'insecure_transport'
  | 'invalid_oauth_request'
  | 'invalid_timestamp'
  | 'invalid_signature'
  | 'replayed_nonce';

export interface AuthContext {
  user: AuthUser | null;
  method: AuthMethod;
  apiKeyId: number | null;
  /** Scopes of the API key; null when the method is not scoped (session, JWT). */
  scopes: ReadonlySet<Scope> | null;
  sessionId: number | null;
  failure: AuthFailure | null;
}

export const ANONYMOUS: AuthContext = Object.freeze({
  user: null,
  method: 'anonymous',
  apiKeyId: null,
  scopes: null,
  sessionId: null,
  failure: null,
}) as AuthContext;

/** Route-level permission, declared in the route's `config.auth`. */
export type RoutePolicy =
  | 'public'
  | {
      /** Capability the user must hold (administrators hold all). */
      cap?: string;
      /** Any authenticated user (when no cap). */
      authenticated?: true;
      /** API key scope needed; default: `read` for GET/HEAD, `write` otherwise. */
      scope?: Scope;
    };
