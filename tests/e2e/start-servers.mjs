#!/usr/bin/env node
// The browser tests' servers, started at once (playwright.config.ts). Playwright starts its webServer entries one after
// another, each once the one before answers; eight servers that each set up a database took minutes that way. This
// starts every server of E2E_SERVERS ([{ name, command, env }]) together, prefixes their output with their name, and
// ends them all (and itself, with the same code) when one of them stops, so Playwright sees the failure.
import { spawn } from 'node:child_process';

const servers = JSON.parse(process.env.E2E_SERVERS ?? '[]');
if (!Array.isArray(servers) || servers.length === 0) {
  console.error('start-servers: E2E_SERVERS names no server');
  process.exit(2);
}
const { E2E_SERVERS: _list, ...inherited } = process.env;

const children = servers.map(({ name, command, env }) => {
  const child = spawn(command, { shell: true, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (stream, out) => {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`start-servers: ${name} stopped (${signal ?? `exit ${code}`}); stopping the others`);
    stop(code || 1);
  });
  return child;
});

let stopping = false;
function stop(code) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 200).unref();
}
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(0));
