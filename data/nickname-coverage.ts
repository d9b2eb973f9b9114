/**
 * How much of a public list of US given-name diminutives the engine's nickname table
 * covers: `npx tsx data/nickname-coverage.ts`. Every pair of the onyxrev list
 * (data/nicknames/onyxrev-nicknames.txt, less the lines build-nicknames.ts leaves out) is
 * looked up in both directions with the engine's own test of two names being variants.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_NICKNAMES, areNicknameVariants } from '../src/engine/nicknames.js';
import { ONYXREV_LEFT_OUT } from './build-nicknames.js';

const clean = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
const text = readFileSync(new URL('./nicknames/onyxrev-nicknames.txt', import.meta.url), 'utf8');
let pairs = 0;
let covered = 0;
const missing: string[] = [];
for (const line of text.split('\n')) {
  if (line.startsWith('#') || !line.includes(':')) continue;
  const [name, nicks] = line.split(':') as [string, string];
  for (const nick of nicks.split(',')) {
    const a = clean(name);
    const b = clean(nick);
    if (a.length < 2 || b.length < 2 || a === b || ONYXREV_LEFT_OUT.has(`${a}:${b}`)) continue;
    pairs++;
    if (areNicknameVariants(DEFAULT_NICKNAMES, a, b) && areNicknameVariants(DEFAULT_NICKNAMES, b, a)) covered++;
    else missing.push(`${a}/${b}`);
  }
}
console.log(`onyxrev pairs ${pairs}, covered both ways ${covered} (${((100 * covered) / pairs).toFixed(1)}%), missing ${missing.length}`);
if (missing.length > 0) console.log(`missing: ${missing.slice(0, 60).join(' ')}${missing.length > 60 ? ' ...' : ''}`);
