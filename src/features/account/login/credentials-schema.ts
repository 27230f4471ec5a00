/**
 * The credentials form's schema and resolver: loaded by the form's first validation (src/lib/lazy-resolver.ts), so
 * zod is not part of the login screen's first load.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { emailField } from '../schemas';

export const credentialsSchema = z.object({ email: emailField, password: z.string().min(1, 'required') });
export type CredentialsValues = z.infer<typeof credentialsSchema>;
export const credentialsResolver = zodResolver(credentialsSchema);
