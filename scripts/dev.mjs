// `npm run dev`: the API (restarted on change by tsx watch) on API_PORT and Vite with its proxy on 3000.
// Both run as children of this process and are stopped together, whichever ends first.
import { spawn } from 'node:child_process';

const apiPort = process.env.API_PORT ?? '3001';
const children = [];
let stopping = false;

function run(name, command, args, env) {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env }, detached: process.platform !== 'win32' });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[dev] ${name} exited (${signal ?? code}); stopping the other process`);
      stop(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

function stop(exitCode = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      // Each child leads its own process group, so the signal also reaches what it started (tsx's node).
      process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  }
  setTimeout(() => process.exit(exitCode), 500).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

// The developer's own machine: mail without SMTP is read at /_outbox (opt-in, loopback only).
run('api', 'npx', ['tsx', 'watch', 'server/main.ts'], { PORT: apiPort, OUTBOX_PAGE: process.env.OUTBOX_PAGE ?? '1' });
run('vite', 'npx', ['vite', '--port', '3000', '--strictPort'], { API_PORT: apiPort });
