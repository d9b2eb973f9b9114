/**
 * Builds src/engine/generated/nicknames.ts from the three nickname tables in data/nicknames/
 * and our own additions there (matchbook-additions.txt, read as more onyxrev lines).
 * Run with `npm run gen:tables`; test/engine/nicknames.test.ts fails when the checked-in
 * file drifts from what this script would write.
 *
 * Each output group is one canonical given name followed by its nicknames and variants,
 * all folded (lower case, no accents, letters only). The two sources are merged by
 * canonical name.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const GENERATED_PATH = join(HERE, '..', 'src', 'engine', 'generated', 'nicknames.ts');

function clean(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/** Merges the sources into canonical -> set of variants. */
/**
 * Lines of the onyxrev list that join two different given names rather than a name and its
 * diminutive (Bill/Fred come from Wilfred, Jon/Nathan from Jonathan): left out.
 */
export const ONYXREV_LEFT_OUT: ReadonlySet<string> = new Set([
  'bill:fred',
  'billy:fred',
  'will:fred',
  'willie:fred',
  'jon:nathan',
  'patrick:peter',
  'al:bert',
  'bert:bob',
  'bert:bobby',
  'jamie:ben',
  'lisa:alice',
  'aaron:erin',
  'derrick:eric',
  'elbert:albert',
  'amelia:emily',
  'lena:ellen',
  'eleanor:elaine',
]);

/**
 * Pairs of the CDC list that its shorter-form rule ({@link cdcKeeps}) would keep but that are
 * two given names, each a name of its own and no nickname of the other (Christopher and
 * Christian, Margaret and Mary, Kenneth and Kent, Violet and Viola, George and Georgia):
 * twins and sisters are so named, and as variants one email or a date of birth beside them
 * made them one person. Either order.
 */
export const CDC_LEFT_OUT: ReadonlySet<string> = new Set([
  'christopher:christian',
  'margaret:mary',
  'dorothy:doris',
  'kenneth:kent',
  'randolph:randall',
  'william:willis',
  'violet:viola',
  'olivia:olive',
  'felicity:felicia',
  'jefferson:jeffery',
  'vincent:vinson',
  'sylvester:sylvanus',
  'anderson:andre',
  'adelaide:adeline',
  'adelphia:adeline',
  'antoinette:antonia',
  'rosabella:roseanne',
  'rosabella:rosalyn',
  'roseanne:rosalyn',
  'mindwell:minerva',
  'georgia:george',
  'georgina:george',
  'josephine:jose',
  'laurence:lauren',
  'augusta:august',
  'theodosia:theodore',
  'theodosia:theodora',
]);

/**
 * The CDC list also joins different given names that share a root or a language's form of it
 * (Mary: Martha, Margaret, Maureen; John: Jean, Ivan; Patrick: Patricia; Anna: Christina,
 * Hannah): a name that the other two lists give nicknames of, as a name of its own, and that
 * is no shorter form of the CDC's name (Kate, Kathleen: Catherine), is kept as its variant
 * only where one of those lists joins the two as well.
 */
function cdcKeeps(canonical: string, nick: string, ownNames: ReadonlySet<string>, pairs: ReadonlySet<string>): boolean {
  if (CDC_LEFT_OUT.has(`${canonical}:${nick}`) || CDC_LEFT_OUT.has(`${nick}:${canonical}`)) return false;
  if (!ownNames.has(nick) || pairs.has(`${canonical}:${nick}`) || pairs.has(`${nick}:${canonical}`)) return true;
  return nick.length < canonical.length && sounded(nick).slice(0, 3) === sounded(canonical).slice(0, 3);
}

/** A name's spelling with the letters that sound alike at its start made one (Catherine, Kate; Theresa, Teresa). */
function sounded(name: string): string {
  return name
    .replace(/^c(?=[aou])/, 'k')
    .replace(/^ph/, 'f')
    .replace(/^th/, 't');
}

function lineParts(line: string): [string, string[]] | null {
  const [canonical, nicks] = line.replace(/\r$/, '').split(':');
  if (!canonical || !nicks) return null;
  return [canonical, nicks.split(',')];
}

export function collectGroups(carlton: string, cdc: string, onyx = ''): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  // Names the carltonnorthern and onyxrev lists give nicknames of, and the pairs they join.
  const ownNames = new Set<string>();
  const pairs = new Set<string>();
  for (const line of carlton.split('\n').slice(1)) {
    const [name1, relation, name2] = line.replace(/\r$/, '').split(',');
    if (relation !== 'has_nickname' || !name1 || !name2) continue;
    ownNames.add(clean(name1));
    pairs.add(`${clean(name1)}:${clean(name2)}`);
  }
  for (const line of onyx.split('\n')) {
    const parts = line.startsWith('#') ? null : lineParts(line);
    if (parts === null) continue;
    ownNames.add(clean(parts[0]));
    for (const nick of parts[1]) pairs.add(`${clean(parts[0])}:${clean(nick)}`);
  }
  const add = (canonical: string, nick: string): void => {
    const c = clean(canonical);
    const n = clean(nick);
    if (c.length < 2 || n.length < 2 || c === n) return;
    let set = groups.get(c);
    if (!set) groups.set(c, (set = new Set()));
    set.add(n);
  };
  for (const line of carlton.split('\n').slice(1)) {
    const [name1, relation, name2] = line.replace(/\r$/, '').split(',');
    if (relation === 'has_nickname' && name1 && name2) add(name1, name2);
  }
  for (const line of cdc.split('\n')) {
    const parts = lineParts(line);
    if (parts === null) continue;
    for (const nick of parts[1]) if (cdcKeeps(clean(parts[0]), clean(nick), ownNames, pairs)) add(parts[0], nick);
  }
  for (const line of onyx.split('\n')) {
    if (line.startsWith('#')) continue;
    const [canonical, nicks] = line.replace(/\r$/, '').split(':');
    if (!canonical || !nicks) continue;
    for (const nick of nicks.split(',')) if (!ONYXREV_LEFT_OUT.has(`${clean(canonical)}:${clean(nick)}`)) add(canonical, nick);
  }
  return groups;
}

/** Renders the generated module's source text. */
export function renderNicknameModule(carlton: string, cdc: string, onyx: string): string {
  const groups = collectGroups(carlton, cdc, onyx);
  const lines = [...groups.keys()].sort().map((canonical) => `  '${[canonical, ...[...(groups.get(canonical) ?? [])].sort()].join(' ')}',`);
  return [
    '// GENERATED by data/build-nicknames.ts from data/nicknames/*.csv. Do not edit by hand:',
    '// run `npm run gen:tables`. Sources: carltonnorthern/nicknames (Apache-2.0),',
    '// CDCgov/phdi nicknames (CC0-1.0), onyxrev/common_nickname_csv (public domain), and our own',
    '// additions (nicknames/matchbook-additions.txt); see data/README.md.',
    '// Past 400 lines because it is one table of data, a line per group, not code.',
    '',
    '/** Nickname groups: each string is a canonical given name, then its variants, space separated. */',
    'export const NICKNAME_GROUPS: readonly string[] = [',
    ...lines,
    '];',
    '',
  ].join('\n');
}

export function readSources(): [string, string, string] {
  return [
    readFileSync(join(HERE, 'nicknames', 'carltonnorthern-names.csv'), 'utf8'),
    readFileSync(join(HERE, 'nicknames', 'cdc-phdi-nicknames.csv'), 'utf8'),
    // Our own additions, in the onyxrev format, read as more of its lines.
    `${readFileSync(join(HERE, 'nicknames', 'onyxrev-nicknames.txt'), 'utf8')}\n${readFileSync(join(HERE, 'nicknames', 'matchbook-additions.txt'), 'utf8')}`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [carlton, cdc, onyx] = readSources();
  writeFileSync(GENERATED_PATH, renderNicknameModule(carlton, cdc, onyx));
  console.error(`wrote ${GENERATED_PATH}`);
}
