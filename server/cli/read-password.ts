import { createInterface } from 'node:readline';
import { OperatorError } from './operator-errors';

/**
 * The new password: from HOME_GUARD_PASSWORD when set (scripts, CI), else typed at a hidden
 * prompt twice, else (input is not a terminal) the first line of standard input.
 */
export async function readPassword(env: NodeJS.ProcessEnv): Promise<string> {
  if (env.HOME_GUARD_PASSWORD) return env.HOME_GUARD_PASSWORD;
  if (!process.stdin.isTTY) return firstLineOfInput();
  const first = await ask('Password: ');
  const second = await ask('Repeat password: ');
  if (first !== second) throw new OperatorError('the passwords do not match');
  return first;
}

async function firstLineOfInput(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (!line) throw new OperatorError('no password given (set HOME_GUARD_PASSWORD or pipe it in)');
  return line;
}

function ask(prompt: string, hidden = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    let answered = false;
    if (hidden) {
      // Echo the prompt but not the typed characters.
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (text: string) => {
        if (text.startsWith(prompt)) process.stdout.write(prompt);
      };
    }
    rl.question(prompt, (answer) => {
      answered = true;
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    rl.on('close', () => {
      if (!answered) reject(new OperatorError('no password given'));
    });
  });
}
