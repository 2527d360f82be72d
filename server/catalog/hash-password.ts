import { hashPassword } from '../services/password';

/**
 * `npm run staff:hash`: the hash of a password for a seller folder's staff.json (issue 18), which holds no password.
 * Reads the password from standard input (`npm run -s staff:hash < file`, or typed and ended with Ctrl-D), so it
 * stays out of the shell's history and the process list.
 */
async function main() {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const password = input.replace(/\r?\n$/, '');
  if (password.length < 8) {
    console.error('staff:hash: give a password of 8 characters or more on standard input');
    process.exit(1);
  }
  process.stdout.write(`${await hashPassword(password)}\n`);
}

void main();
