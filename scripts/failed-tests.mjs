// The failed tests of a run, one line each (where, which test, the first line of its error), read from the JSON
// reports of Vitest and Playwright. `npm test` (scripts/test.mjs) prints them last: CI shows only the end of a long
// run's log, and a count alone does not say which test to look at.
import path from 'node:path';

/** The first non-empty line of an error message, without the runners' colour codes. */
export function firstLine(text) {
  const plain = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex
  return (plain.split('\n').find((l) => l.trim()) ?? '').trim().slice(0, 300);
}

/** Vitest's JSON report: `file > describe test: error`. */
export function vitestFailed(report) {
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((t) => t.status === 'failed')
      .map((t) => `${path.relative(process.cwd(), file.name)} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`),
  );
}

/**
 * Playwright's JSON report nests suites under one per file; a test failed when its outcome is 'unexpected' (a flaky
 * one passed on its retry). `file:line [project] describe > test: error`.
 */
export function playwrightFailed(report) {
  const walk = (suite, titles) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((t) => t.status === 'unexpected')
        .map(
          (t) =>
            `${spec.file}:${spec.line} [${t.projectName}] ${[...titles, spec.title].join(' > ')}: ${firstLine(t.results.at(-1)?.error?.message)}`,
        ),
    ),
    ...(suite.suites ?? []).flatMap((s) => walk(s, [...titles, s.title])),
  ];
  // The outermost suites are the files, already named by `spec.file`.
  return report.suites.flatMap((file) => walk(file, []));
}
