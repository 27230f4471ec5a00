import type { AppConfig } from './config';
import type { Db } from './db/index';
import type { Mailer } from './services/mail';
import type { Language } from './i18n/index';
import type { AuthContext, BearerVerifier } from './plugins/app/auth';
import type { Admission } from './lib/admission';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** accept technical users' API keys on this route (default: refused with 403 api_key_not_allowed) */
    apiKey?: boolean;
  }
  interface FastifyInstance {
    config: AppConfig;
    db: Db;
    mailer: Mailer;
    /** Verifiers tried in order for `Authorization: Bearer` (access tokens, API keys). */
    bearerVerifiers: BearerVerifier[];
    /** `draining` is set when shutdown starts: readiness answers 503, background jobs stop and release their leases. */
    lifecycle: { draining: boolean };
    /** Admission control of the sign-in flow (server/plugins/app/admission.ts). */
    admission: Admission;
  }
  interface FastifyRequest {
    lang: Language;
    t(code: string, params?: Record<string, string | number>): string;
    /** Set by the auth guards; null when the request is anonymous. */
    auth: AuthContext | null;
  }
}
