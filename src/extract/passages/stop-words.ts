/**
 * Stop words dropped from queries: function words that match everywhere and say nothing
 * of what is asked. English is always on (agents mostly ask in English, whatever the
 * page's language); a page's or request's language adds its own short list. Question words
 * are stop words here: "when" and "how" are in the question, rarely in the answer.
 */

const ENGLISH = `a about above after again against all also am an and another any are as at be because
been before being below between both but by came can cannot come could did do does doing done down
during each either else ever every few for from further get gets got had has have having he her here
hers herself him himself his how however i if in into is it its itself just like make many may me
might more most much must my myself never no nor not now of off on once only or other our ours
ourselves out over own please said same shall she should since so some still such take than that
the their theirs them themselves then there these they this those through to too under until up upon
us very was way we well were what whatever when whenever where whereas whether which while who whom
whose why will with within without would yet you your yours yourself yourselves
tell know find explain describe list give show`;

// Short lists of the commonest function words, by BCP 47 primary language subtag.
const OTHERS: Record<string, string> = {
  de: `aber als am an auch auf aus bei bin bis bist da dann das dass dem den der des die dies diese dieser
    doch du ein eine einem einen einer eines er es für hat hatte ich ihr im in ist ja kann mit nach nicht
    noch nur oder sein sich sie sind so um und uns von vor war warum was weil welche wenn wer wie wird
    wo zu zum zur über`,
  fr: `au aux avec ce ces comment dans de des du elle en est et il ils je la le les leur lui ma mais me
    même mes moi mon ne nos notre nous on ou où par pas pour qu que quel quelle qui quoi sa se ses son
    sont sur ta te tes toi ton tu un une vos votre vous été être`,
  es: `al como con cuál cuándo cómo de del dónde el ella ellos en es esta este fue ha la las le les lo los
    me mi no nos o para pero por qué que se ser si sin son su sus también te tu un una y ya`,
  it: `a al alla come con da dal del della di dove e che chi cosa gli ha il in io la le lo ma mi ne non o
    per perché quale quando se si sono su un una è`,
  pt: `a ao aos as com como da das de do dos e ela ele em era foi isso mas na nas no nos o onde os ou para
    pela pelo por qual quando que se sem são também um uma é`,
  nl: `aan als bij dan dat de den der die dit door een en er had heb heeft het hij hoe in is ik je maar
    met naar niet of om ook op te tot uit van voor waar wanneer wat was wie wij zijn zo`,
  zh: `的 了 是 在 和 与 或 也 就 都 而 及 着 吗 呢 吧 啊 什么 怎么 为什么 哪 哪里 谁 多少 这 那 这个 那个 一个 有 我 你 他 她 它 们`,
  ja: `の は が を に で と も へ や から まで より か な ね よ です ます でした こと もの これ それ あれ どの どこ いつ 何 なに だれ どう`,
};

const english = new Set(ENGLISH.split(/\s+/));
const byLanguage = new Map<string, Set<string>>();

/** The stop words for a language tag (English plus that language's, when known). */
export function stopWordsFor(language?: string): ReadonlySet<string> {
  const primary = language?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const own = OTHERS[primary];
  if (own === undefined) return english;
  let set = byLanguage.get(primary);
  if (!set) {
    set = new Set([...english, ...own.split(/\s+/).filter((w) => w !== '')]);
    byLanguage.set(primary, set);
  }
  return set;
}
