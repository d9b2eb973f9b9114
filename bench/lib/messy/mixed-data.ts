/**
 * Tables for the `mixed` scenario, written for this project: names in Cyrillic, Greek and
 * Arabic script with the Latin spellings people and agencies actually use for them (the
 * first is the most common), nicknames beyond the engine's table, placeholder values that
 * stand for "unknown", and values shared by many unrelated people (an office's info@, a
 * shelter's phone and address). Organisations are fictional; phone numbers of shared
 * values are in the 555-0100..0199 range reserved for fiction.
 */

export type Script = 'cyrillic' | 'greek' | 'arabic';

/** A name: the native form, then Latin spellings (first = the usual one). */
export type NativeName = readonly [native: string, ...latin: string[]];

/** A surname with its male and female forms (equal where the language has one form). */
export interface NativeSurname {
  readonly male: NativeName;
  readonly female: NativeName;
}

export interface ScriptNames {
  readonly male: readonly NativeName[];
  readonly female: readonly NativeName[];
  readonly surnames: readonly NativeSurname[];
}

/** Russian surnames in -ov/-ev/-in take -a for women in both scripts. */
function slavic(native: string, ...latin: string[]): NativeSurname {
  return { male: [native, ...latin], female: [`${native}а`, ...latin.map((l) => `${l}a`)] };
}

function one(native: string, ...latin: string[]): NativeSurname {
  return { male: [native, ...latin], female: [native, ...latin] };
}

export const NATIVE_NAMES: Readonly<Record<Script, ScriptNames>> = {
  cyrillic: {
    male: [
      ['Александр', 'Aleksandr', 'Alexander', 'Alexandr'],
      ['Дмитрий', 'Dmitriy', 'Dmitry', 'Dmitrii', 'Dmitri'],
      ['Сергей', 'Sergey', 'Sergei', 'Serguei'],
      ['Андрей', 'Andrey', 'Andrei'],
      ['Алексей', 'Aleksey', 'Alexey', 'Alexei', 'Aleksei'],
      ['Михаил', 'Mikhail', 'Mihail', 'Michail'],
      ['Иван', 'Ivan'],
      ['Николай', 'Nikolay', 'Nikolai', 'Nicolai'],
      ['Юрий', 'Yuriy', 'Yuri', 'Iurii', 'Yury'],
      ['Евгений', 'Evgeniy', 'Yevgeny', 'Evgeny', 'Yevgeniy'],
    ],
    female: [
      ['Елена', 'Elena', 'Yelena', 'Jelena'],
      ['Наталья', 'Natalya', 'Natalia', 'Nataliya'],
      ['Ольга', 'Olga'],
      ['Татьяна', 'Tatyana', 'Tatiana', 'Tatjana'],
      ['Юлия', 'Yuliya', 'Yulia', 'Iuliia', 'Julia'],
      ['Екатерина', 'Ekaterina', 'Yekaterina', 'Katerina'],
      ['Анастасия', 'Anastasiya', 'Anastasia'],
      ['Ирина', 'Irina'],
      ['Светлана', 'Svetlana'],
      ['Мария', 'Mariya', 'Maria'],
    ],
    surnames: [
      slavic('Иванов', 'Ivanov'),
      slavic('Смирнов', 'Smirnov'),
      slavic('Кузнецов', 'Kuznetsov', 'Kuznecov'),
      slavic('Попов', 'Popov'),
      slavic('Соколов', 'Sokolov'),
      slavic('Лебедев', 'Lebedev'),
      slavic('Козлов', 'Kozlov'),
      slavic('Новиков', 'Novikov'),
      slavic('Морозов', 'Morozov'),
      slavic('Волков', 'Volkov'),
      slavic('Щербаков', 'Shcherbakov', 'Scherbakov', 'Shherbakov'),
      slavic('Васильев', 'Vasilyev', 'Vasiliev', 'Vasilev'),
      slavic('Фёдоров', 'Fyodorov', 'Fedorov', 'Fiodorov'),
      slavic('Жуков', 'Zhukov', 'Jukov'),
      slavic('Яковлев', 'Yakovlev', 'Iakovlev', 'Jakovlev'),
    ],
  },
  greek: {
    male: [
      ['Γεώργιος', 'Georgios', 'Giorgos', 'Yiorgos'],
      ['Κωνσταντίνος', 'Konstantinos', 'Constantinos', 'Konstandinos'],
      ['Δημήτριος', 'Dimitrios', 'Demetrios', 'Dimitris'],
      ['Ιωάννης', 'Ioannis', 'Ioannes', 'Yannis'],
      ['Νικόλαος', 'Nikolaos', 'Nicolaos'],
      ['Παναγιώτης', 'Panagiotis', 'Panayiotis', 'Panagiotes'],
      ['Χρήστος', 'Christos', 'Hristos', 'Chrestos'],
      ['Αθανάσιος', 'Athanasios', 'Athanassios'],
    ],
    female: [
      ['Μαρία', 'Maria'],
      ['Ελένη', 'Eleni', 'Helene', 'Eleny'],
      ['Αικατερίνη', 'Aikaterini', 'Ekaterini', 'Aikaterine'],
      ['Βασιλική', 'Vasiliki', 'Vassiliki'],
      ['Σοφία', 'Sofia', 'Sophia'],
      ['Αγγελική', 'Angeliki', 'Aggeliki'],
      ['Δήμητρα', 'Dimitra', 'Demetra'],
      ['Ευαγγελία', 'Evangelia', 'Evaggelia'],
    ],
    surnames: [
      { male: ['Παπαδόπουλος', 'Papadopoulos', 'Papadopulos'], female: ['Παπαδοπούλου', 'Papadopoulou', 'Papadopulu'] },
      one('Οικονόμου', 'Oikonomou', 'Economou', 'Ikonomou'),
      one('Γεωργίου', 'Georgiou', 'Yeorgiou', 'Georgiu'),
      one('Βασιλείου', 'Vasileiou', 'Vassiliou', 'Vasiliou'),
      one('Νικολάου', 'Nikolaou', 'Nicolaou'),
      { male: ['Καραγιάννης', 'Karagiannis', 'Karayannis'], female: ['Καραγιάννη', 'Karagianni', 'Karayanni'] },
      { male: ['Παπαδάκης', 'Papadakis'], female: ['Παπαδάκη', 'Papadaki'] },
      one('Αντωνίου', 'Antoniou', 'Andoniou'),
      one('Ιωάννου', 'Ioannou', 'Joannou'),
      { male: ['Μακρής', 'Makris', 'Macris'], female: ['Μακρή', 'Makri', 'Macri'] },
    ],
  },
  arabic: {
    male: [
      ['محمد', 'Mohammed', 'Muhammad', 'Mohamed', 'Mohammad', 'Mohamad'],
      ['أحمد', 'Ahmed', 'Ahmad'],
      ['علي', 'Ali'],
      ['حسن', 'Hassan', 'Hasan'],
      ['حسين', 'Hussein', 'Hussain', 'Husain', 'Hossein'],
      ['عمر', 'Omar', 'Umar'],
      ['يوسف', 'Youssef', 'Yusuf', 'Yousef', 'Yousif'],
      ['خالد', 'Khaled', 'Khalid'],
      ['إبراهيم', 'Ibrahim', 'Ebrahim'],
      ['عبد الله', 'Abdullah', 'Abdallah', 'Abdulla'],
    ],
    female: [
      ['فاطمة', 'Fatima', 'Fatma', 'Fatimah'],
      ['عائشة', 'Aisha', 'Aysha', 'Aicha', 'Ayesha'],
      ['مريم', 'Maryam', 'Mariam', 'Meryem'],
      ['ليلى', 'Layla', 'Leila', 'Laila'],
      ['نور', 'Nour', 'Noor', 'Nur'],
      ['زينب', 'Zainab', 'Zeinab', 'Zaynab'],
      ['سارة', 'Sara', 'Sarah'],
      ['خديجة', 'Khadija', 'Khadijah', 'Khadeeja'],
    ],
    surnames: [
      one('حداد', 'Haddad'),
      one('خوري', 'Khoury', 'Khouri', 'Khuri'),
      one('منصور', 'Mansour', 'Mansur'),
      one('صالح', 'Saleh', 'Salih'),
      one('ناصر', 'Nasser', 'Nasir', 'Naser'),
      one('الشامي', 'Al-Shami', 'Alshami', 'El Shami'),
      one('العلي', 'Al-Ali', 'Alali', 'El-Ali'),
      one('حمدان', 'Hamdan'),
      one('عثمان', 'Othman', 'Osman', 'Uthman'),
      one('الحسيني', 'Al-Husseini', 'Husseini', 'El Husseini'),
    ],
  },
};

/** Share of households (of the whole file) whose people carry names of each script. */
export const SCRIPT_SHARES: readonly (readonly [Script, number])[] = [
  ['cyrillic', 0.05],
  ['greek', 0.03],
  ['arabic', 0.05],
];

/**
 * Nicknames people go by that the engine's nickname table may not list (plausible, not
 * checked against it); folded formal name -> forms.
 */
export const EXTRA_NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  robert: ['Bobbie', 'Rab'],
  william: ['Liam', 'Wills'],
  elizabeth: ['Libby', 'Bess', 'Elsie'],
  margaret: ['Greta', 'Daisy', 'Midge'],
  alexander: ['Sasha', 'Xander'],
  katherine: ['Kit', 'Kay', 'Katie'],
  michael: ['Mick', 'Mickey'],
  jennifer: ['Jenna', 'Jenn'],
  christopher: ['Topher', 'Kit'],
  jessica: ['Jessa'],
  nicholas: ['Nico', 'Cole'],
  anthony: ['Ant', 'Tone'],
  patricia: ['Tricia', 'Patsy'],
  victoria: ['Vic'],
  samantha: ['Sammy'],
  james: ['Jas'],
  joseph: ['Joss'],
  daniel: ['Dani'],
  matthew: ['Matty'],
  andrew: ['Andi'],
  thomas: ['Thom'],
  richard: ['Ricky'],
  edward: ['Teddy'],
  susan: ['Suzy'],
};

/** Placeholder names entered for people whose name was not known (null: the real surname). */
export const PLACEHOLDER_NAMES: readonly { readonly first: string; readonly last: string | null }[] = [
  { first: 'Unknown', last: 'Unknown' },
  { first: 'UNKNOWN', last: 'UNKNOWN' },
  { first: 'Unk', last: null },
  { first: 'Baby Boy', last: null },
  { first: 'Baby Girl', last: null },
  { first: 'John', last: 'Doe' },
  { first: 'Jane', last: 'Doe' },
  { first: 'Test', last: 'Test' },
  { first: 'Test', last: 'Patient' },
  { first: 'N/A', last: 'N/A' },
  { first: 'None', last: null },
  { first: 'Anonymous', last: '' },
  { first: 'FNU', last: null },
  { first: 'Unknown', last: null },
];

export const PLACEHOLDER_SSNS: readonly string[] = ['000-00-0000', '999-99-9999', '123-45-6789', '111-11-1111', '000000000'];
export const PLACEHOLDER_PHONES: readonly string[] = ['000-000-0000', '555-555-5555', '999-999-9999', '(000) 000-0000', '123-456-7890'];
export const PLACEHOLDER_EMAILS: readonly string[] = [
  'none@none.com',
  'noemail@noemail.com',
  'na@na.com',
  'no@email.com',
  'unknown@unknown.com',
  'test@test.com',
];
export const PLACEHOLDER_DOBS: readonly string[] = ['1900-01-01', '1901-01-01', '1800-01-01'];

/** Offices whose generic address and main line staff type in for the people they serve. */
export const GENERIC_ORGS: readonly { readonly email: string; readonly phone: string }[] = [
  { email: 'info@eastsideoutreach.org', phone: '2125550143' },
  { email: 'office@northvalleycommunity.org', phone: '3125550178' },
  { email: 'frontdesk@harborfamilyclinic.org', phone: '6175550112' },
];

/** Shelters: their street address and phone stand in for people without their own. */
export const SHELTERS: readonly { readonly address: string; readonly city: number; readonly zip: string; readonly phone: string }[] = [
  { address: '410 W 33rd St', city: 0, zip: '10001', phone: '2125550190' },
  { address: '1200 S State St', city: 2, zip: '60605', phone: '3125550166' },
];

/** What the address field says for people without one. */
export const NO_ADDRESS: readonly string[] = ['GENERAL DELIVERY', 'HOMELESS', 'Homeless', 'General Delivery', 'NO FIXED ADDRESS'];
