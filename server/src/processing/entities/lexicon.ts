/**
 * The word lists the rules read. All entries are lower case without a
 * trailing period; lookups lower-case the token and drop its periods.
 *
 * Given names come from @faker-js/faker's locale data (MIT, tens of millions
 * of downloads a month, first names of its 70-odd locales from every continent): no
 * npm package ships a maintained names list that is better kept, and its data
 * is plain arrays we only read. Surnames are not used: a surname list says
 * little, since almost every capitalized word is someone's surname.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const set = (words: string): Set<string> => new Set(words.trim().split(/\s+/));

/**
 * Words that are never an entity on their own, whatever their case: function
 * words, modal verbs, sentence starters, weekdays, months, greetings and
 * report vocabulary. "Will" and "May" are here: a name that includes them
 * ("Will Turner", "Theresa May") is found through other cues, never through
 * the word itself.
 */
export const STOP_WORDS = set(`
a an the this that these those it its it's he she they them we us i you your our their his her my me him
who whom whose what which why how where when while whereas if then than as at in on by with without within
from to of off for about above below under over into onto upon via per across after before since until till
and but or nor so yet also too very just only even still already again once both either neither each every
all any some many most more much few less least other another such same own not no yes
will would may might can could shall should must do does did done is are was were be been being am has have had
according however meanwhile moreover furthermore therefore thus hence although though because unless whether
today yesterday tomorrow tonight now later earlier soon recently currently previously finally first second third
fourth last next new old early late
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
spring summer autumn fall winter
q1 q2 q3 q4 h1 h2 fy
dear hi hello hey thanks thank regards best kind cheers sincerely subject re fwd fw cc bcc sent attachment
note notes update updates breaking exclusive analysis report reports summary source sources comment comments
total revenue revenues sales net gross profit profits income loss losses ebitda ebit earnings margin margins
year years quarter quarters month months week weeks day days annual quarterly monthly weekly daily
chief executive officer officers president vice chairman chairwoman chair director directors manager managers
minister ministers secretary spokesperson spokesman spokeswoman founder cofounder co-founder partner
analyst analysts head board boards member members team staff employees customers clients investors
company companies group firm firms bank banks fund funds business unit division market markets
government state states city country region north south east west northern southern eastern western central
please see read click call contact visit follow sign join download view find learn
here there where everything something nothing anything someone everyone nobody
yes ok okay sure well oh
mr mrs ms miss dr prof sir dame lord lady
inc ltd llc plc gmbh ag sa nv bv se co corp
one two three four five six seven eight nine ten hundred thousand million billion trillion
percent pct dollar dollars euro euros pound pounds yen franc francs
table figure chart page section appendix item items line lines row rows column
ceo cfo coo cto cio cmo ciso vp svp evp md gm chro
usd eur gbp chf jpy cny rmb inr cad aud
gdp cpi ppi ipo m&a esg ai it hr pr ir r&d kpi roi api faq pdf ok eu un us uk usa
am pm est cet utc gmt bst
shares officials analysts investors police unions farmers residents traders economists executives lawyers
critics regulators lenders stocks bonds prices orders demand supply asked key strong weak upside downside risk
risks forwarding approve approved interview deal deals buyer seller target value speaker owner approver status
name role phone email e-mail press media contact chart disclosures reporting reporter reporters officials
meanwhile welcome congratulations congrats team everyone guys folks sir madam overall outlook guidance
`);

/** Words that are names as often as they are words; never an entity alone, fine inside a longer name. */
export const WORDS_THAT_ARE_ALSO_NAMES = set(`will may mark bill grant rose hope faith joy june april august
page price rich frank guy jack art dean major king young long sterling chase summer hunter`);

/** Titles and honorifics before a person's name. */
export const PERSON_TITLES = set(`mr mrs ms miss mx dr prof professor sir dame lord lady herr frau mme mlle
senator sen rep representative governor gov president vice-president chancellor minister premier judge
ambassador gen colonel col capt adm sheikh sheikha rev imam rabbi mayor councillor councilor commissioner sgt
ceo cfo coo cto cio cmo chairman chairwoman founder co-founder cofounder`);

/** Titles that settle a person even for a single following word ("Dr Okafor"). */
export const STRONG_PERSON_TITLES = set(`mr mrs ms miss mx dr prof professor sir dame herr frau mme mlle
senator sen rep governor gov chancellor ambassador judge sheikh sheikha mayor`);

/** Role words; "X, the chief executive of Y" and "chief executive X". */
export const ROLE_WORDS = set(`ceo cfo coo cto cio cmo ciso chairman chairwoman chair president founder co-founder
cofounder director head partner analyst economist strategist spokesperson spokesman spokeswoman executive officer
manager owner chief investor trader lawyer attorney counsel adviser advisor consultant researcher professor
secretary treasurer minister governor editor reporter correspondent engineer scientist broker banker
vice-president vp svp evp md principal associate boss leader chairperson`);

/** Verbs of saying after a person's name ("Weber said"). */
export const REPORTING_VERBS = set(`said says told tells added adds noted notes explained explains wrote writes
argued argues warned warns stated states commented comments confirmed confirms declined declines insisted
insists acknowledged acknowledges recalled recalls admitted admits believes believed thinks thought
estimated estimates predicted predicts suggested suggests urged urges replied replies asked asks`);

/** Verbs after an organization more than after a person. */
export const ORGANIZATION_VERBS = set(`reported reports posted posts acquired acquires announced announces raised
raises filed files listed lists shipped ships employs employed operates operated manufactures manufactured
invested invests hired hires sued sues trades traded`);

/**
 * Legal forms: a capitalized name ending in one is an organization.
 * Compared without periods, so "S.A." is "sa" and "N.V." is "nv".
 */
export const LEGAL_SUFFIXES = set(`gmbh ag kg kgaa ohg ug ltd limited inc incorporated llc llp lp plc sa sas sarl
sàrl srl spa nv bv se oy oyj ab asa as a/s hf ehf aps kk co corp corporation company pte pty bhd sdn ltda sl sau sab
cv oao pao ooo jsc zao sp z.o.o kft zrt doo dd ad`);

/** Words that end organization names often enough to settle them ("Harbor Capital"). */
export const ORGANIZATION_WORDS = set(`group holdings holding partners capital bank banks bancorp ventures technologies
technology systems industries labs laboratories fund funds trust associates foundation institute university
college ministry agency authority commission council bureau insurance reinsurance energy pharmaceuticals
pharma therapeutics biotech motors airlines airways logistics solutions securities investments management
advisors advisers consulting consultants networks communications telecom media entertainment studios
brewery breweries foods beverages chemicals mining metals steel resources petroleum oil gas power utilities
electric electronics semiconductor semiconductors software robotics dynamics aerospace automotive shipping
lines exchange markets finance financial credit lending payments insurers hospital clinic museum
association federation union alliance society league committee court office department service services
corporation enterprises international worldwide global brothers bros`);

/** Head words before "of" that start organization names ("Bank of Montreal", "University of Ghana"). */
export const ORGANIZATION_HEADS = set(`bank university ministry department institute office agency council
commission academy college court museum federation association society union league board bureau school
church order house`);

/** Nouns before an organization's name ("the lender Caixa Nova", "rival Orbex"). */
export const ORGANIZATION_CUES_BEFORE = set(`company firm lender bank insurer reinsurer group startup start-up
retailer carmaker automaker manufacturer supplier maker producer operator rival competitor subsidiary unit
conglomerate broker brokerage fund investor distributor wholesaler developer publisher airline carrier chain
brand label agency regulator consultancy miner utility shipper exporter importer client customer partner
vendor contractor acquirer`);

/** Words before an organization's name (verbs and prepositions of business). */
export const ORGANIZATION_VERBS_BEFORE = set(`joined acquired acquire acquiring bought buy buying sued suing
invested backed backing founded co-founded cofounded leads led runs ran chairs chaired heads headed`);

/** Particles inside names: "Ursula von der Leyen", "Bank of Montreal", "Procter & Gamble". */
export const NAME_PARTICLES = set(`of and & de da di do dos das du del della der den van von ter ten la le bin bint
al el y e`);

/** Particles that join only person names (never "of", "and"). */
export const PERSON_PARTICLES = set(`de da di do dos das du del della der den van von ter ten la le bin bint al el y`);

/** Abbreviations that keep their trailing period (so it ends no sentence). */
export const ABBREVIATIONS = set(`mr mrs ms dr prof sr jr st mt gen col capt adm sen rep gov rev sgt inc ltd corp co
no vs etc approx dept est fig jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k e.g i.e s.a n.v b.v s.p.a
a.g p.l.c hf ehf mio mrd bn mn mln bln tn`);

/** Abbreviations that never end a sentence (a title is always followed by its name). */
export const NEVER_FINAL_ABBREVIATIONS = set(`mr mrs ms dr prof st mt gen col capt adm sen rep gov rev sgt no vs approx fig`);

/** Upper-case words that are not organizations (codes, units, report words). */
export const ACRONYM_STOP = set(`ceo cfo coo cto cio cmo ciso vp svp evp md gm ceos cfos usd eur gbp chf jpy cny
rmb inr cad aud nzd sek nok dkk pln czk huf brl mxn zar krw sgd hkd try rub aed sar gdp cpi ppi ipo esg ai it hr pr
ir kpi roi api faq pdf ok eu un us uk usa uae q1 q2 q3 q4 h1 h2 fy ytd yoy qoq tbd tba na n/a am pm est cet utc gmt
bst edt pst cst ceo's llc ltd plc gmbh inc ag nv bv sa se id tv pc ip b2b b2c saas ev evs lng llm ml ar vr ux ui
rfp rfi nda mou loi m&a r&d p&l ebitda ebit eps pe vc ngo ngos dc hq re fwd fw cc bcc ps nb asap fyi eta`);

/** Reporting verbs in the present or past that start a quote attribution after a comma ("…," said Weber). */
export const QUOTE_ATTRIBUTION_VERBS = set(`said says added adds noted notes explained wrote told`);

let givenNames: Set<string> | undefined;

interface FakerLocale {
  person?: { first_name?: string[] | { generic?: string[]; female?: string[]; male?: string[] } };
}

/** Lower-cased given names of all of faker's locales (about 24,000), loaded on first use. */
export function loadGivenNames(): Set<string> {
  if (givenNames) return givenNames;
  // The CommonJS build, so the load stays synchronous.
  const faker = require('@faker-js/faker') as Record<string, FakerLocale | undefined>;
  const names = new Set<string>();
  for (const locale of Object.keys(faker)) {
    const firstName = faker[locale]?.person?.first_name;
    if (!firstName) continue;
    const lists = Array.isArray(firstName) ? [firstName] : [firstName.generic, firstName.female, firstName.male];
    for (const list of lists) for (const name of list ?? []) names.add(name.toLowerCase());
  }
  // A given name that is also a common word proves nothing on its own.
  for (const word of STOP_WORDS) if (!WORDS_THAT_ARE_ALSO_NAMES.has(word)) names.delete(word);
  givenNames = names;
  return names;
}
