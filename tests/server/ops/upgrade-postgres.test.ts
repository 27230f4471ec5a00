// Issue 30.4: the previous release on the next release's schema, and rollback, with real processes on PostgreSQL
// (TEST_DATABASE_URL; a database mig_… of its own). The suite: fixtures/upgrade-suite.ts.
import { describe, it } from 'vitest';
import { describeUpgrade } from './fixtures/upgrade-suite';

if (process.env.TEST_DATABASE_URL) describeUpgrade('postgres');
else describe.skip('upgrade and rollback with real processes [postgres]: TEST_DATABASE_URL is not set', () => it('skipped', () => {}));
