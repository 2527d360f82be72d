// A Vitest reporter for `npm test` (scripts/test.mjs): writes the errors that belong to no test — a file that failed to
// import, a describe's beforeAll or afterAll — to the JSON file named by $VITEST_SETUP_ERRORS. Vitest's JSON report
// only counts such a describe's tests as skipped, and its own printout of the error is hundreds of lines above the end
// of the run's log, which is all that CI shows of a long run.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { firstLine } from './failed-tests.mjs';

export default class SetupErrors {
  onTestRunEnd(testModules, unhandledErrors) {
    const lines = [];
    const first = (e) => firstLine(e?.message ?? e);
    for (const m of testModules) {
      const file = path.relative(process.cwd(), m.moduleId);
      for (const e of m.errors()) lines.push(`${file}: ${first(e)}`);
      for (const suite of m.children.allSuites()) for (const e of suite.errors()) lines.push(`${file} > ${suite.fullName}: ${first(e)}`);
    }
    for (const e of unhandledErrors) lines.push(`unhandled: ${first(e)}`);
    if (process.env.VITEST_SETUP_ERRORS) writeFileSync(process.env.VITEST_SETUP_ERRORS, JSON.stringify(lines));
  }
}
