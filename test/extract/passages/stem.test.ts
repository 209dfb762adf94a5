import { describe, expect, it } from 'vitest';
import { prefixKey, termsFor } from '../../../src/extract/passages/stem.js';
import { termOf } from '../../../src/extract/passages/tokenize.js';

/** The distinct terms `language`'s term function gives `words` (one: they meet). */
function oneTerm(language: string, words: string[]): string[] {
  const terms = termsFor(language);
  return [...new Set(words.map(terms))];
}

/**
 * Words made of a few syllables of `consonants` and `vowels` with `endings` after them:
 * enough shapes to meet a stemmer's rare rewrites, the same each run.
 */
function generated(consonants: string, vowels: string, endings: string[], count: number): string[] {
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 48271) % 2147483647;
    return seed % n;
  };
  const c = [...consonants];
  const v = [...vowels];
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    let word = '';
    for (let s = 1 + next(3); s > 0; s--)
      word += (next(5) > 0 ? (c[next(c.length)] ?? '') : '') + (v[next(v.length)] ?? '');
    words.push(word + (endings[next(endings.length)] ?? ''));
  }
  return words.filter((w) => w.length >= 3);
}

describe('termsFor', () => {
  it('is termOf itself for English, no language and languages without a stemmer', () => {
    // Bulgarian: @orama/stemmers' throws on plurals such as ученици.
    for (const language of [undefined, '', 'en', 'en-GB', 'EN_us', 'xx', 'zh', 'zh-Hant-TW', 'ja', 'ko', 'bg', 'he']) {
      expect(termsFor(language)).toBe(termOf);
    }
  });

  it('gives the English terms exactly as before', () => {
    const words = ['running', 'runs', 'ran', 'certificates', 'rotation', 'café', 'naïve', 'v2', '2024', 'a', 'by'];
    expect(words.map(termsFor('en'))).toEqual(words.map(termOf));
    expect(words.map(termsFor('zh'))).toEqual(words.map(termOf));
  });

  it('meets the forms of a noun in German, Spanish, French and Russian', () => {
    expect(oneTerm('de', ['häuser', 'hauses', 'haus'])).toHaveLength(1);
    expect(oneTerm('de', ['bücher', 'buch'])).toHaveLength(1);
    expect(oneTerm('es', ['ciudades', 'ciudad'])).toHaveLength(1);
    expect(oneTerm('es', ['canciones', 'canción'])).toHaveLength(1);
    expect(oneTerm('es', ['actividades', 'actividad'])).toHaveLength(1);
    expect(oneTerm('fr', ['nationales', 'national'])).toHaveLength(1);
    expect(oneTerm('fr', ['chevaux', 'cheval'])).toHaveLength(1);
    expect(oneTerm('ru', ['книги', 'книгой', 'книга'])).toHaveLength(1);
    expect(oneTerm('ru', ['городами', 'город'])).toHaveLength(1);
  });

  it('meets a plural and its singular in Portuguese, Italian, Dutch and Swedish', () => {
    expect(oneTerm('pt', ['livros', 'livro'])).toHaveLength(1);
    expect(oneTerm('it', ['libri', 'libro'])).toHaveLength(1);
    expect(oneTerm('nl', ['boeken', 'boek'])).toHaveLength(1);
    expect(oneTerm('sv', ['bilarna', 'bilar', 'bil'])).toHaveLength(1);
  });

  it('reads a tag by its primary subtag', () => {
    expect(termsFor('pt-BR')).toBe(termsFor('pt'));
    expect(termsFor('de-AT')).toBe(termsFor('de'));
    expect(termsFor(' ES_mx ')).toBe(termsFor('es'));
    expect(termsFor('pt-BR')('cidades')).toBe(termsFor('pt')('cidade'));
    expect(termsFor('de-AT')('häuser')).toBe('haus');
    expect(termsFor('nb')('husene')).toBe(termsFor('no')('hus'));
  });

  it('leaves digits and words with digits as they are', () => {
    for (const language of ['de', 'es', 'ru', 'tr', 'ar']) {
      const terms = termsFor(language);
      for (const token of ['2024', '3', '007', 'v2', 'mp3']) expect(terms(token)).toBe(token);
    }
  });

  it("stems Latin words on a page in another script with Porter, the page's words with its stemmer", () => {
    const terms = termsFor('ru');
    expect(terms('servers')).toBe(termOf('servers'));
    expect(terms('servers')).toBe(terms('server'));
    expect(oneTerm('ar', ['الكتاب', 'كتاب'])).toHaveLength(1);
    expect(termsFor('ar')('running')).toBe('run');
  });

  it("stems English words on a Latin-script page with the page's stemmer, as the query's", () => {
    expect(oneTerm('de', ['browsers', 'browser'])).toEqual(['brows']);
    expect(termsFor('de')('updates')).toBe('updat');
    expect(termOf('updates')).toBe('updat');
  });

  it('reads ё as е in Russian and both Romanian s and t with a comma or a cedilla', () => {
    expect(oneTerm('ru', ['ёлки', 'елка', 'ёлкой'])).toHaveLength(1);
    expect(oneTerm('ru', ['ёж', 'еж'])).toHaveLength(1);
    expect(oneTerm('ro', ['orașele', 'oraşele', 'oraș'])).toEqual(['oraș']);
    expect(oneTerm('ro', ['științele', 'ştiinţele'])).toHaveLength(1);
  });

  it('keeps a Turkish word its own first letters where Snowball hardens a last consonant', () => {
    const terms = termsFor('tr');
    expect(oneTerm('tr', ['ağı', 'ağlar', 'ağda', 'ağ'])).toEqual(['ağ']);
    expect(terms('ak')).toBe('ak');
    expect(oneTerm('tr', ['kitapları', 'kitaplar', 'kitap'])).toEqual(['kitap']);
    // Snowball's stem "i" would begin half the dictionary.
    expect(terms('ileri')).toBe('ileri');
  });

  it('stems the scripts of Armenian and Tamil', () => {
    expect(oneTerm('hy', ['քաղաքներ', 'քաղաք'])).toHaveLength(1);
    expect(oneTerm('ta', ['வீடுகள்', 'வீடு'])).toHaveLength(1);
  });

  it('stems Greek, Ukrainian, Lithuanian, Hindi, Nepali, Indonesian and Serbian', () => {
    expect(oneTerm('el', ['άνθρωπος', 'ανθρώπων', 'ανθρώπους'])).toEqual(['ανθρωπ']);
    expect(oneTerm('el', ['ελλάδα', 'ελλάδας'])).toHaveLength(1);
    expect(oneTerm('uk', ['книги', 'книга', 'книгою'])).toEqual(['книг']);
    expect(oneTerm('uk', ['міста', 'місто', 'містах'])).toHaveLength(1);
    expect(oneTerm('lt', ['miestas', 'miestai', 'miestuose'])).toEqual(['miest']);
    expect(oneTerm('hi', ['लड़का', 'लड़के', 'लड़कों'])).toHaveLength(1);
    expect(oneTerm('ne', ['घरहरू', 'घर'])).toEqual(['घर']);
    expect(oneTerm('id', ['membaca', 'dibaca', 'bacaan'])).toEqual(['baca']);
    // Serbian is written in both scripts: they meet, as ijekavian and ekavian spellings do.
    expect(oneTerm('sr', ['градови', 'gradovi'])).toHaveLength(1);
    expect(oneTerm('sr', ['mlijeko', 'mleko'])).toHaveLength(1);
    expect(termsFor('uk')('servers')).toBe(termOf('servers'));
  });

  it('keeps a Lithuanian word its own first letters where Snowball undoes palatalisation', () => {
    expect(termsFor('lt')('ačių').slice(0, 2)).toBe('ač');
  });

  it('folds accents as Snowball does: Italian acute and grave, Greek diaeresis', () => {
    expect(oneTerm('it', ['éra', 'èra'])).toHaveLength(1);
    expect(oneTerm('el', ['πρωτεΐνη', 'πρωτεΐνες'])).toHaveLength(1);
  });
});

/** Whether `key` maps every generated word and its term alike: the words where it does not. */
function keyMisses(language: string, words: string[]): string[] {
  const terms = termsFor(language);
  const key = prefixKey(language);
  if (!key) throw new Error(`no prefix key for ${language}`);
  return words.filter((w) => key(terms(w)) !== key(w));
}

describe('prefixKey', () => {
  it('is the first two characters for English, no language and languages without a stemmer', () => {
    for (const language of [undefined, '', 'en', 'en-US', 'xx', 'zh', 'bg']) {
      const key = prefixKey(language);
      expect(key?.('running'), language).toBe('ru');
      expect(key?.('école'), language).toBe('éc');
    }
  });

  it('is undefined where the stemmer strips or rewrites whole prefixes', () => {
    for (const language of ['ga', 'ar', 'ar-EG', 'ta', 'id', 'sr'])
      expect(prefixKey(language), language).toBeUndefined();
    expect(termsFor('ga')('bhfuil')).toBe('fuil');
    expect(termsFor('ar')('الكتاب')).toBe(termsFor('ar')('كتاب'));
    expect(termsFor('sr')('љубав')).toBe('ljubav');
  });

  it('folds the two characters as the stemmer folds letters', () => {
    const de = prefixKey('de-AT');
    expect(de?.('über')).toBe('ub');
    expect(de?.(termsFor('de')('über'))).toBe('ub');
    expect(de?.('ßa')).toBe('ss');
    expect(prefixKey('fr')?.('père')).toBe(prefixKey('fr')?.(termsFor('fr')('père')));
    expect(prefixKey('ru')?.('ёлки')).toBe('ел');
    expect(prefixKey('ro')?.('ştiinţa')).toBe(prefixKey('ro')?.('știința'));
    expect(prefixKey('el')?.('άνθρωπος')).toBe('αν');
    // Snowball's Greek writes ϊ as η: πρωτεΐνη -> πρωτεην.
    expect(prefixKey('el')?.('εΐνη')).toBe(prefixKey('el')?.(termsFor('el')('εΐνη')));
    expect(prefixKey('el')?.('εΐνη')).toBe('εη');
    expect(prefixKey('es')?.('é')).toBe('e');
    expect(prefixKey('es')?.('')).toBe('');
  });

  it('takes ASCII as it is, in every language with a key', () => {
    for (const language of ['de', 'es', 'fr', 'nl', 'ro', 'ru', 'el', 'it', 'ca', 'pt', 'tr', 'uk']) {
      const key = prefixKey(language);
      for (const word of ['update', 'x', 'v2', 'ab']) expect(key?.(word), language).toBe(word.slice(0, 2));
    }
  });

  it('holds on generated words of every language with a key', () => {
    const cases: [string, string, string, string[]][] = [
      ['de', 'bdfghklmnprstvwzß', 'aeiouäöüy', ['', 'en', 'er', 'ungen', 'lich', 'keit', 'ern']],
      ['es', 'bcdfglmnñprstvz', 'aeiouáéíóúü', ['', 's', 'es', 'ción', 'ciones', 'mente', 'idades']],
      ['ca', 'bcdfglmnprstvxç', 'aeiouàèéíïòóúü', ['', 's', 'es', 'ció', 'cions', 'ment', 'itat']],
      ['fr', 'bcdfglmnprstvz', 'aeiouyàâéèêëîïôùûüœ', ['', 's', 'es', 'ement', 'ation', 'ère', 'ées', 'ité']],
      ['nl', 'bdfghjklmnprstvwz', 'aeiouyäëïöüáéíóú', ['', 'en', 'heden', 'lijk', 'ing', 'tje']],
      ['ro', 'bcdfglmnprsștțvzşţ', 'aeiouăâî', ['', 'ele', 'ilor', 'ități', 'ației', 'ului', 'ţii']],
      ['ru', 'бвгджзклмнпрстфхцчшщй', 'аеёиоуыэюяь', ['', 'ами', 'ого', 'ость', 'ения', 'ий', 'ёт', 'ённый']],
      ['uk', 'бвгґджзклмнпрстфхцчшщй', 'аеєиіїоуюяь', ['', 'ами', 'ого', 'ість', 'ення', 'ові', 'ях']],
      ['el', 'βγδζθκλμνξπρστφχψ', 'αεηιουωάέήίόύώϊϋΐΰ', ['', 'ος', 'ους', 'ων', 'ικός', 'ότητα', 'ματα']],
      ['it', 'bcdfglmnprstvz', 'aeiouàèéìíòóùú', ['', 'i', 'mente', 'zioni', 'ità', 'ando', 'ati']],
      ['pt', 'bcdfglmnprstvxzç', 'aeiouáâãéêíóôõú', ['', 's', 'ões', 'ção', 'mente', 'idades', 'ava']],
      ['sv', 'bdfgklmnprstv', 'aeiouyåäö', ['', 'en', 'arna', 'erna', 'heten', 'lig', 'ande']],
      ['da', 'bdfgklmnprstv', 'aeiouyæøå', ['', 'ene', 'erne', 'hed', 'lig', 'ede']],
      ['no', 'bdfgklmnprstv', 'aeiouyæøå', ['', 'ene', 'erne', 'het', 'lig', 'ede']],
      ['fi', 'dhjklmnprstv', 'aeiouyäö', ['', 'ssa', 'stä', 'lla', 'ksi', 'issa', 'ineen', 'kin']],
      ['hu', 'bdfgjklmnprstvz', 'aeiouáéíóöőúüű', ['', 'ok', 'nak', 'ből', 'ről', 'vel', 'ság', 'ért']],
      ['cs', 'bcčdďhjklmnňprřsštťvzž', 'aáeéěiíoóuúůyý', ['', 'y', 'ách', 'ami', 'ení', 'ostí', 'ého', 'ích']],
      ['sl', 'bcčdghjklmnprsštvzž', 'aeiou', ['', 'ih', 'ami', 'ega', 'osti', 'ovanje']],
      ['eu', 'bdghklmnprstxz', 'aeiou', ['', 'ak', 'aren', 'etan', 'tik', 'rekin', 'tasun']],
      ['hy', 'բգդզթլխծկհմյնշչպռսվտրցքֆ', 'աեէըիոօ', ['', 'եր', 'ներ', 'ով', 'ում', 'ից', 'ության']],
      ['tr', 'bcçdgğklmnprsştyz', 'aeıioöuü', ['', 'lar', 'ları', 'den', 'ımız', 'lik', 'dir', 'ı']],
      ['lt', 'bcčdgjklmnprsštvzž', 'aąeęėiįyouųū', ['', 'as', 'ai', 'ų', 'ose', 'uose', 'imas', 'ėjo']],
      ['hi', 'कखगचजटडतदनपबमयरलवशसह', 'ािीुूेैोौं', ['', 'ों', 'ें', 'ियों', 'ता', 'ने', 'कर']],
      ['ne', 'कखगचजटडतदनपबमयरलवशसह', 'ािीुूेैोौ', ['', 'हरू', 'को', 'मा', 'लाई', 'ले', 'हरूको']],
    ];
    for (const [language, consonants, vowels, endings] of cases) {
      expect(keyMisses(language, generated(consonants, vowels, endings, 1500)), language).toEqual([]);
    }
  });
});

describe("Porter's first three letters (the ranker's filter for English terms of four letters or more)", () => {
  it('keeps them in every stem of four letters or more, of generated English words with common endings', () => {
    const endings = ['', 's', 'es', 'ed', 'ing', 'ly', 'er', 'ness', 'ation', 'ational', 'izing', 'ful', 'ous'];
    const misses = generated('bcdfghjklmnpqrstvwxyz', 'aeiouy', endings, 20_000)
      .filter((word) => /^[a-z]+$/.test(word))
      .map((word) => [word, termOf(word)] as const)
      .filter(([word, stem]) => stem.length >= 4 && stem.slice(0, 3) !== word.slice(0, 3));
    expect(misses).toEqual([]);
    // A stem of three may change its third: "buying" -> "bui" (the ranker looks for it by two).
    expect(termOf('buying')).toBe('bui');
  });
});

describe('prefixKey as the ranker uses it', () => {
  it('is true for English, no language and languages without a stemmer', () => {
    for (const language of [undefined, '', 'en', 'en-US', 'xx', 'zh', 'bg'])
      expect(prefixKey(language)?.('über')).toBe('üb');
  });

  it('is true where stems keep the first two characters, false where they fold or strip them', () => {
    for (const language of [
      'cs',
      'da',
      'eu',
      'fi',
      'hu',
      'hy',
      'nb',
      'nn',
      'no',
      'pt-BR',
      'sl',
      'sv',
      'tr',
      'uk',
      'lt',
      'hi',
      'ne',
    ]) {
      expect(prefixKey(language)?.('über'), language).toBe('üb');
    }
    for (const language of ['de-AT', 'es', 'fr', 'ru', 'nl', 'ro', 'ca', 'it', 'el', 'ga', 'ar', 'ta', 'id', 'sr']) {
      expect(prefixKey(language)?.('über'), language).not.toBe('üb');
    }
    expect(termsFor('de')('über').slice(0, 2)).toBe('ub');
    expect(termsFor('fr')('père').slice(0, 2)).toBe('pe');
    expect(termsFor('ga')('bhfuil').slice(0, 2)).toBe('fu');
  });
});
