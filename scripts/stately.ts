/**
 * `npm run stately -- <chart>` prints a chart (machines/stately.ts) as source for Stately's editor: open
 * https://stately.ai/registry/new, "Import" → paste. Without a name it lists the charts.
 */
import { CHARTS, statelySource } from '../machines/stately';

const name = process.argv[2];
const machine = name ? CHARTS[name] : undefined;
if (!name || !machine) {
  console.error(`${name ? `unknown chart "${name}". ` : ''}charts: ${Object.keys(CHARTS).join(', ')}\nusage: npm run stately -- <chart>`);
  process.exit(name ? 1 : 0);
}
process.stdout.write(statelySource(name, machine));
