/**
 * How long buildApp + ready takes in one process (CPU time, so a busy machine does not blur it): what every server
 * start and every API test file pays before the first request. `npx tsx bench/app-build.ts [rounds]`.
 */
import { buildApp } from '../server/app';
import { readConfig } from '../server/config';
import type { Deps } from '../server/deps';

const rounds = Number(process.argv[2] ?? 5);
const deps = {
  db: {} as Deps['db'],
  dbKind: 'pglite',
  config: { ...readConfig({}), staticDir: '/nonexistent' },
  now: () => new Date(),
} as Deps;
const cpu: number[] = [];
for (let i = 0; i < rounds; i++) {
  const before = process.cpuUsage();
  const app = await buildApp(deps);
  await app.ready();
  const used = process.cpuUsage(before);
  cpu.push((used.user + used.system) / 1000);
  await app.close();
}
const sorted = [...cpu].sort((a, b) => a - b);
console.log(
  `buildApp + ready, CPU ms: first ${cpu[0].toFixed(0)}, median of the rest ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} (runs ${cpu.map((c) => c.toFixed(0)).join(', ')})`,
);
