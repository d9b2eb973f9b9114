/**
 * One key for the romanizations of a given name from Cyrillic: passports, visas, school records
 * and any-ascii (fold.ts) each write "Дмитрий" their own way ("Dmitrii", "Dmitriy", "Dmitry",
 * "Dmitri"), as "Александр" ("Aleksandr", "Alexandr", "Alexander"), "Юлия" ("Yuliya", "Yulia",
 * "Julia", "Iuliia") or "Евгений" ("Evgenii", "Yevgeniy", "Evgeny"). Two or three letters apart,
 * they read as two names or a double typo; their keys are equal. Only the letters those systems
 * write differently are made one, so two given names of their own seldom meet in one key.
 * Muhammad's romanizations from Arabic are one key too.
 */

const RULES: readonly (readonly [RegExp, string])[] = [
  // х/кс: Aleksandr, Alexandr; Kseniya, Xenia.
  [/ks/g, 'x'],
  // Е, Ю at the start: Yevgeniy / Evgeny, Yelena / Elena; Yuliya / Iuliia / Julia.
  [/^ye/, 'e'],
  [/^(?:iu|ju)/, 'yu'],
  // -ия, -ья, -ийа: Yuliya / Yulia / Iuliia, Natalya / Natalia, Mariya / Maria.
  [/(?:iy|ii|y)a$/, 'ia'],
  // Я, Ю, Е after a consonant inside a name: Tatyana / Tatiana, Lyudmila / Liudmila.
  [/([^aeiouy])y(?=[aeiou])/g, '$1i'],
  // -ий, -ый, -ей at the end: Dmitrii / Dmitriy / Dmitry / Dmitri, Yurii / Yury / Jurij, Sergey / Sergei.
  [/(?:iy|ii|yi|ij|y)$/, 'i'],
  [/ey$/, 'ei'],
  // -др at the end, which English writes -der: Aleksandr / Alexander; Petr / Peter.
  [/([bcdfgkpt])er$/, '$1r'],
  // And the most given name of all, from Arabic: Muhammad, Mohammed, Mohamed, Mohammad, Muhamad.
  [/^m[ou]h[ae]mm?[ae]d$/, 'muhammad'],
];

/** The romanization key of a compact (folded, lower-case, letters only) given name. */
export function romanizationKey(compact: string): string {
  let key = compact;
  for (const [from, to] of RULES) key = key.replace(from, to);
  return key;
}
