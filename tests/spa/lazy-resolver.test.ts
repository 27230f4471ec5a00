import { zodResolver } from '@hookform/resolvers/zod';
import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { credentialsResolver, credentialsSchema, type CredentialsValues } from '../../src/features/account/login/credentials-schema';
import { lazyResolver } from '../../src/lib/lazy-resolver';

const options: ResolverOptions<CredentialsValues> = { fields: {}, shouldUseNativeValidation: false };
const inputs: CredentialsValues[] = [
  { email: '', password: '' },
  { email: 'ada', password: 'x' },
  { email: `${'a'.repeat(250)}@example.com`, password: '' },
  { email: '  ada@example.com ', password: 'secret' },
];

describe('lazyResolver (the login form: zod loads with the first validation)', () => {
  it('answers exactly what the eager zodResolver of the same schema answers: values or field errors', async () => {
    const lazy = lazyResolver<CredentialsValues>(() => import('../../src/features/account/login/credentials-schema').then((m) => m.credentialsResolver));
    const eager = zodResolver(credentialsSchema);
    for (const values of inputs) {
      expect(await lazy(values, undefined, options)).toEqual(await eager(values, undefined, options));
    }
    // trimmed e-mail on success, the codes field-errors.ts renders on failure
    expect(await lazy(inputs[3]!, undefined, options)).toEqual({ values: { email: 'ada@example.com', password: 'secret' }, errors: {} });
    const failed = await lazy(inputs[1]!, undefined, options);
    expect(failed.errors).toMatchObject({ email: { message: 'email' } });
  });

  it('loads the schema once, and again after a failed load (a chunk that did not arrive)', async () => {
    let loads = 0;
    const lazy = lazyResolver<CredentialsValues>(async () => {
      loads += 1;
      if (loads === 1) throw new Error('chunk failed');
      return credentialsResolver;
    });
    await expect(lazy(inputs[0]!, undefined, options)).rejects.toThrow('chunk failed');
    await lazy.preload();
    await lazy(inputs[0]!, undefined, options);
    await lazy(inputs[3]!, undefined, options);
    expect(loads).toBe(2);
  });
});
