// Issue 30.4: the previous release on the next release's schema, and rollback, with real processes on SQLite
// (the suite and why the "releases" are built as they are: fixtures/upgrade-suite.ts).
import { describeUpgrade } from './fixtures/upgrade-suite';

describeUpgrade('sqlite');
