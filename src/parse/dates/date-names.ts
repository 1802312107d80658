// Month, day and time zone names that feeds write in their dates. Every key is folded with foldName,
// so a lookup needs the same folding: "Déc", "DEC" and "déc" all become "dec".

/** Returns the word lower-cased, without accents, with a Greek final sigma as a plain sigma. */
export function foldName(word: string): string {
  return word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ς/g, 'σ');
}

// One line per language: twelve slots, January first, alternatives separated by "/". Abbreviations are
// the ones the language's own locale data (and the blogging tools that used it) write, with and without
// the trailing period, which the tokenizer strips. Genitive forms are there because "14 października"
// and "14 октября" are how Polish and Russian write a date.
const MONTHS_BY_LANGUAGE: readonly string[] = [
  // English
  'jan/january feb/february mar/march apr/april may jun/june jul/july aug/august sep/sept/september oct/october nov/november dec/december',
  // German (Austrian "Jänner" too)
  'januar/jän/jänner februar/feber mär/märz/mrz april mai juni juli august sept okt/oktober november dez/dezember',
  // French
  'janv/janvier févr/fév/février mars avr/avril mai juin juil/juillet août sept/septembre oct/octobre nov/novembre déc/décembre',
  // Spanish
  'ene/enero feb/febrero mar/marzo abr/abril may/mayo jun/junio jul/julio ago/agosto sep/sept/set/septiembre/setiembre oct/octubre nov/noviembre dic/diciembre',
  // Italian
  'gen/gennaio feb/febbraio mar/marzo apr/aprile mag/maggio giu/giugno lug/luglio ago/agosto set/settembre ott/ottobre nov/novembre dic/dicembre',
  // Dutch
  'januari februari mrt/maart april mei juni juli augustus september okt/oktober november december',
  // Portuguese
  'janeiro fev/fevereiro março abr/abril mai/maio junho julho ago/agosto set/setembro out/outubro novembro dez/dezembro',
  // Polish: abbreviation, nominative, genitive
  'sty/styczeń/stycznia lut/luty/lutego mar/marzec/marca kwi/kwiecień/kwietnia maj/maja cze/czerwiec/czerwca lip/lipiec/lipca sie/sierpień/sierpnia wrz/wrzesień/września paź/październik/października lis/listopad/listopada gru/grudzień/grudnia',
  // Swedish, Norwegian, Danish
  'januari/januar februari/februar mars/marts april maj/mai juni juli augusti/august september okt/oktober november des/desember/december',
  // Czech: abbreviation, nominative, genitive
  'led/leden/ledna úno/únor/února bře/březen/března dub/duben/dubna kvě/květen/května čvn/červen/června čvc/červenec/července srp/srpen/srpna zář/září říj/říjen/října lis/listopad/listopadu pro/prosinec/prosince',
  // Russian: abbreviation, nominative, genitive
  'янв/январь/января фев/февр/февраль/февраля мар/март/марта апр/апрель/апреля май/мая июн/июнь/июня июл/июль/июля авг/август/августа сен/сент/сентябрь/сентября окт/октябрь/октября ноя/нояб/ноябрь/ноября дек/декабрь/декабря',
  // Greek: abbreviation, nominative, genitive
  'ιαν/ιανουάριος/ιανουαρίου φεβ/φεβρουάριος/φεβρουαρίου μαρ/μάρτιος/μαρτίου απρ/απρίλιος/απριλίου μάι/μαΐ/μάιος/μαΐου ιούν/ιούνιος/ιουνίου ιούλ/ιούλιος/ιουλίου αύγ/αύγουστος/αυγούστου σεπ/σεπτέμβριος/σεπτεμβρίου οκτ/οκτώβριος/οκτωβρίου νοέ/νοέμβριος/νοεμβρίου δεκ/δεκέμβριος/δεκεμβρίου',
  // Hungarian
  'január febr/február márc/március ápr/április máj/május jún/június júl/július aug/augusztus szept/szeptember okt/október nov/november dec/december',
];

// Day names are only ever skipped, so one set serves every language. Same order of languages as above,
// then Hungarian's one- and two-letter abbreviations.
const DAY_NAME_LIST =
  'mon monday tue tues tuesday wed weds wednesday thu thur thurs thursday fri friday sat saturday sun sunday ' +
  'mo montag di dienstag mi mittwoch do donnerstag fr freitag sa samstag sonnabend so sonntag ' +
  'lun lundi mar mardi mer mercredi jeu jeudi ven vendredi sam samedi dim dimanche ' +
  'lunes martes mié miércoles jue jueves vie viernes sáb sábado dom domingo ' +
  'lunedì martedì mercoledì gio giovedì venerdì sab sabato domenica ' +
  'ma maandag dinsdag wo woensdag donderdag vr vrijdag za zaterdag zo zondag ' +
  'seg segunda segunda-feira ter terça terça-feira qua quarta quarta-feira qui quinta quinta-feira sex sexta sexta-feira ' +
  'pon poniedziałek wt wtorek śr środa czw czwartek pt piątek sob sobota nd niedz niedziela ' +
  'mån måndag tis tisdag ons onsdag tor tors torsdag fre fredag lör lördag sön söndag ' +
  'man mandag tir tirsdag lør lørdag søn søndag ' +
  'po pondělí út úterý st středa čt čtvrtek pá pátek ne neděle ' +
  'пн понедельник вт вторник ср среда чт четверг пт пятница сб суббота вс воскресенье ' +
  'δευ δευτέρα τρι τρίτη τετ τετάρτη πεμ πέμπτη παρ παρασκευή σαβ σάββατο κυρ κυριακή ' +
  'h hétfő k kedd sze szerda cs csüt csütörtök p péntek szo szombat v vas vasárnap';

// Offsets in minutes east of UTC. RFC 822 section 5 names UT, GMT, Z and the North American zones;
// the rest are the abbreviations that real feeds write. Where an abbreviation is ambiguous we pick the
// reading feeds mean most often: CST is US Central (RFC 822), not China; IST is India (+05:30), not
// Ireland or Israel; BST is British Summer Time, not Bangladesh.
const NAMED_ZONES: Readonly<Record<string, number>> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  ast: -240,
  adt: -180,
  nst: -210,
  ndt: -150,
  akst: -540,
  akdt: -480,
  hst: -600,
  brt: -180,
  art: -180,
  wet: 0,
  west: 60,
  bst: 60,
  cet: 60,
  cest: 120,
  met: 60,
  mest: 120,
  mez: 60,
  mesz: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  ist: 330,
  pkt: 300,
  ict: 420,
  wib: 420,
  hkt: 480,
  sgt: 480,
  awst: 480,
  jst: 540,
  kst: 540,
  acst: 570,
  acdt: 630,
  aest: 600,
  aedt: 660,
  nzst: 720,
  nzdt: 780,
};

// RFC 822 military zones: A to M (no J) are -1 to -12 hours, N to Y are +1 to +12. RFC 1123 section
// 5.2.14 says those signs are the reverse of real military use, and RFC 2822 section 4.3 says to read
// them as -0000; we follow the RFC 822 table as written, as the Universal Feed Parser does, because a
// generator that emits them was written against RFC 822.
function militaryZones(): [string, number][] {
  const west = [...'abcdefghiklm'].map((letter, i): [string, number] => [letter, -(i + 1) * 60]);
  const east = [...'nopqrstuvwxy'].map((letter, i): [string, number] => [letter, (i + 1) * 60]);
  return [...west, ...east];
}

function buildMonths(): Map<string, number> {
  const months = new Map<string, number>();
  for (const line of MONTHS_BY_LANGUAGE) {
    const slots = line.split(' ');
    if (slots.length !== 12)
      throw new Error(`parse: month line "${slots[0]}" has ${slots.length} slots, not 12`);
    slots.forEach((slot, i) => {
      for (const name of slot.split('/')) {
        const key = foldName(name);
        const known = months.get(key);
        if (known !== undefined && known !== i + 1) {
          throw new Error(`parse: month name "${name}" means both month ${known} and month ${i + 1}`);
        }
        months.set(key, i + 1);
      }
    });
  }
  return months;
}

/** Month number (1-12) by folded name, in every language above. */
export const MONTHS: ReadonlyMap<string, number> = buildMonths();

/** Folded day names in every language above; a date parser skips them. */
export const DAY_NAMES: ReadonlySet<string> = new Set(DAY_NAME_LIST.split(' ').map(foldName));

/** Offset in minutes east of UTC by folded zone name. */
export const ZONES: ReadonlyMap<string, number> = new Map([
  ...Object.entries(NAMED_ZONES),
  ...militaryZones(),
]);
